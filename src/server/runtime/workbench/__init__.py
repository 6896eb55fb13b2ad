"""The Workbench: the one object the jobs, activity, artifact and demo-frame routes and
``studyhall make`` use. It starts artifact jobs from a scope and reads, lists and deletes the
kept artifacts, shows a job and its live usage, streams the activity feed, stops a job or a
run, and serves a finished demo. The job runner (``jobs.py``: spawn, steer, recovery), the
artifact desk (``artifacts.py``) and the activity feed (``activity.py``) are its inner parts,
built by the composition root; the teacher's job tools take the runner's ``spawn`` and
``capacity`` there, before the turn runner exists.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

from studyhall.core.contracts.artifacts import Scope
from studyhall.core.contracts.jobs import Job
from studyhall.core.errors import NotFound, StudyhallError
from studyhall.core.ports.storage import JobStore
from studyhall.server.runtime.events import JobChanged, JobFinished, TurnEnded
from studyhall.server.runtime.supervisor import Supervisor
from studyhall.server.runtime.workbench.activity import ActivityFeed, ActivityUpdate, job_view
from studyhall.server.runtime.workbench.artifacts import ArtifactDesk
from studyhall.server.runtime.workbench.jobs import JobRunner

__all__ = ["Workbench"]


class Workbench:
    def __init__(self, *, jobs: JobRunner, artifacts: ArtifactDesk, activity: ActivityFeed,
                 job_store: JobStore, supervisor: Supervisor) -> None:
        self._jobs = jobs
        self._artifacts = artifacts
        self._activity = activity
        self._store = job_store
        self._supervisor = supervisor  # what follows a finish (the keep) runs in its tasks

    # --- start-up and shutdown (``started`` finds these) ------------------------------------

    async def startup(self) -> None:
        """Recover the jobs a stop or a crash cut short, then keep what finished jobs wrote
        (a job recovery settles may have an artifact to keep)."""
        await self._jobs.startup()
        await self._artifacts.startup()

    async def shutdown(self) -> None:
        """Every live activity stream ends."""
        await self._activity.shutdown()

    # --- reactions (declared in the one table in ``build_runtime``) ---------------------------

    async def on_turn_end(self, ended: TurnEnded) -> None:
        """Flip what the turn delivered, wake for the rest."""
        await self._jobs.on_turn_end(ended)

    def job_changed(self, changed: JobChanged) -> None:
        """The activity streams re-read."""
        self._activity.job_changed(changed)

    async def job_finished(self, finished: JobFinished) -> None:
        """Keep what the job wrote, before its delivery."""
        await self._artifacts.job_finished(finished)

    # --- jobs -----------------------------------------------------------------------------------

    def job(self, job_id: str) -> Job:
        """One job's record (input, status, outcome, whole result, usage)."""
        job = self._store.get(job_id)
        if job is None:
            raise NotFound(f"There is no job {job_id!r}.")
        return job

    def job_progress(self, job: Job) -> dict[str, Any]:
        """The job as the activity feed shows it, with the usage of a running one so far."""
        return job_view(job, self._jobs.live_usage(job.id))

    async def abort_job(self, job_id: str) -> bool:
        """Cancel the job and its model call; False once it has finished."""
        return await self._jobs.abort(job_id)

    async def settled(self) -> None:
        """Wait for the work that follows a finish (keeping its artifacts) to be done."""
        await self._supervisor.idle()

    def demo_html(self, job_id: str) -> str | None:
        """A finished demo's page, or None (no such job, not a demo, not finished)."""
        try:
            job = self._store.get(job_id)
        except StudyhallError:  # an id that cannot name a job file
            return None
        html = (job.result or {}).get("html") if job is not None and job.kind == "demo" else None
        return html if isinstance(html, str) and html.strip() else None

    # --- artifacts --------------------------------------------------------------------------

    async def make_artifacts(self, kinds: Sequence[str], scope: Mapping[str, Any] | Scope,
                             brief: str | None = None, count: int | None = None) -> list[Job]:
        """One background job per kind over the scope (``ArtifactDesk.start``)."""
        return await self._artifacts.start(kinds, scope, brief, count)

    def artifacts(self) -> list[dict[str, Any]]:
        """Every artifact not deleted, newest first."""
        return self._artifacts.list()

    def artifact(self, artifact_id: str) -> dict[str, Any]:
        """One artifact with its content and its Markdown."""
        return self._artifacts.get(artifact_id)

    async def delete_artifact(self, artifact_id: str) -> None:
        await self._artifacts.delete(artifact_id)

    # --- the activity feed ------------------------------------------------------------------

    def activity(self) -> dict[str, Any]:
        """Running and recent jobs, extraction runs and imports, with tokens and cost."""
        return self._activity.snapshot()

    def activity_updates(self, *, limit: int | None = None) -> AsyncIterator[ActivityUpdate]:
        """The feed whenever it changes; ends after ``limit`` updates or on shutdown."""
        return self._activity.updates(limit=limit)

    async def abort_run(self, run_id: str) -> dict[str, Any]:
        """Stop a job, an extraction run or an import by id."""
        return await self._activity.abort(run_id)
