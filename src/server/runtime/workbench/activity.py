"""The activity feed: running and recent background work — jobs, extraction runs, imports —
with per-run tokens and cost (absent stays null, never 0), live updates and true abort.

Jobs come from the job runner (records + live usage of the running ones); other runs from
the run registries the composition root hands in (anything with ``runs``/``get``/``abort``: the
extraction scheduler, the import runner), so a new kind of run appears here without this module
changing. On shutdown every live stream ends.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from studyhall.core.contracts.chat import Usage
from studyhall.core.contracts.jobs import Job
from studyhall.core.contracts.stream import WireEvent
from studyhall.core.contracts.turn_stream import ActivityChanged
from studyhall.core.errors import NotFound
from studyhall.core.ports.storage import JobStore
from studyhall.core.workbench.kinds import job_title
from studyhall.server.runtime.events import JobChanged
from studyhall.server.runtime.workbench.jobs import JobRunner

RECENT = 20


class RunRegistry(Protocol):
    def runs(self) -> list[Any]: ...
    def get(self, run_id: str) -> Any: ...
    def abort(self, run_id: str) -> bool: ...


def _usage(u: Usage | None) -> dict[str, Any] | None:
    return None if u is None else u.model_dump(mode="json")


def job_view(job: Job, live: Usage | None = None) -> dict[str, Any]:
    status: str = job.status
    if status == "running" and job.outcome is not None:
        status = "delivering"  # finished; its steer waits for (or rides in) a turn
    return {
        "run_id": job.id,
        "kind": "job",
        "job_kind": job.kind,
        "chat_id": job.chat_id,
        "label": job_title(job.kind, job.input),
        "status": status,
        "outcome": job.outcome,
        "attempts": job.attempts,
        "restarts": job.restarts,
        "error": job.error,
        "usage": _usage(live if live is not None else job.usage),
        "started_at": job.created_at.isoformat(),
        "updated_at": job.updated_at.isoformat(),
        "finished_at": job.finished_at.isoformat() if job.finished_at else None,
    }


def _run_view(run: Any) -> dict[str, Any]:
    view = dict(run.to_dict())
    view.setdefault("usage", None)  # a run that calls no model has no usage: null, not 0
    if "label" not in view:
        if view.get("kind") == "extraction":
            view["label"] = f"Extracting {view.get('source_id', '')}".strip()
        elif view.get("kind") == "import":
            view["label"] = f"Importing {view.get('path', '')}".strip()
        else:
            view["label"] = str(view.get("kind", "run"))
    return view


def _total(views: list[dict[str, Any]], key: str) -> float | int | None:
    known = [v["usage"][key] for v in views if v.get("usage") and v["usage"].get(key) is not None]
    return sum(known) if known else None


@dataclass(frozen=True)
class ActivityUpdate:
    """The whole feed, sent as the ``activity`` event whenever it changes."""

    name: ClassVar[str] = "activity"
    data: dict[str, Any]

    def wire_event(self) -> WireEvent:
        return ActivityChanged.model_validate(self.data)


class ActivityFeed:
    def __init__(self, *, jobs: JobRunner, job_store: JobStore,
                 registries: Sequence[RunRegistry]) -> None:
        self._jobs = jobs
        self._store = job_store
        self._registries = tuple(registries)
        self._event = asyncio.Event()
        self._closed = False

    def registries(self) -> tuple[RunRegistry, ...]:
        return self._registries

    def snapshot(self) -> dict[str, Any]:
        running: list[dict[str, Any]] = []
        finished: list[dict[str, Any]] = []
        for job in self._store.list():
            if job.status in ("queued", "running"):
                running.append(job_view(job, self._jobs.live_usage(job.id)))
            else:
                finished.append(job_view(job))
        for registry in self.registries():
            for run in registry.runs():
                (running if getattr(run, "status", None) == "running" else finished).append(
                    _run_view(run))
        running.sort(key=lambda v: (v["started_at"], v["run_id"]), reverse=True)
        finished.sort(key=lambda v: (v.get("finished_at") or v["started_at"], v["run_id"]),
                      reverse=True)
        recent = finished[:RECENT]
        shown = running + recent
        return {
            "running": running,
            "recent": recent,
            "summary": {
                "jobs": sum(1 for v in running if v["kind"] == "job"),
                "extractions": sum(1 for v in running if v["kind"] == "extraction"),
                "imports": sum(1 for v in running if v["kind"] == "import"),
                "input_tokens": _total(shown, "input_tokens"),
                "output_tokens": _total(shown, "output_tokens"),
                "cost_usd": _total(shown, "cost_usd"),
            },
        }

    # --- abort ------------------------------------------------------------------------------

    async def abort(self, run_id: str) -> dict[str, Any]:
        """Abort a job or a run by id; ``NotFound`` when nothing has that id."""
        if self._store.get(run_id) is not None:
            return {"run_id": run_id, "kind": "job", "aborted": await self._jobs.abort(run_id)}
        for registry in self.registries():
            run = registry.get(run_id)
            if run is not None:
                kind = run.to_dict().get("kind", "run") if hasattr(run, "to_dict") else "run"
                aborted = registry.abort(run_id)
                self.notify()
                return {"run_id": run_id, "kind": kind, "aborted": aborted}
        raise NotFound(f"Nothing with the id {run_id!r} is running or recent.")

    # --- live updates -----------------------------------------------------------------------

    def notify(self) -> None:
        """Something changed: wake every stream (they re-read and send if it differs)."""
        event, self._event = self._event, asyncio.Event()
        event.set()

    def job_changed(self, changed: JobChanged) -> None:
        """A job started, spent, finished or settled: the streams re-read."""
        self.notify()

    def close(self) -> None:
        self._closed = True
        self.notify()

    async def shutdown(self) -> None:
        """The app's shutdown step: every live stream ends (the server need not wait for it)."""
        self.close()

    async def updates(self, *, poll: float = 1.0,
                      limit: int | None = None) -> AsyncIterator[ActivityUpdate]:
        """The snapshot whenever it changes (checked on every notification and every ``poll``
        seconds, for runs that do not notify); ends after ``limit`` updates or on shutdown."""
        last: dict[str, Any] | None = None
        sent = 0
        while not self._closed:
            snapshot = self.snapshot()
            if snapshot != last:
                last = snapshot
                yield ActivityUpdate(snapshot)
                sent += 1
                if limit is not None and sent >= limit:
                    return
            event = self._event
            try:
                await asyncio.wait_for(event.wait(), poll)
            except TimeoutError:
                pass

