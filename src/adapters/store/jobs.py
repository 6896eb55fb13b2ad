"""``JsonJobStore``: one job per file, ``jobs/<job_id>.json``, replaced atomically."""

from __future__ import annotations

from pathlib import Path

from studyhall.adapters.store.folder import RecordFolder
from studyhall.adapters.store.shape_guard import checked, require_safe_id
from studyhall.adapters.store.shared_semantics import oldest_first
from studyhall.core.contracts.jobs import Job


def _same(job: Job) -> Job:
    return job


class JsonJobStore:
    def __init__(self, root: Path) -> None:
        self._folder: RecordFolder[Job, Job] = RecordFolder(Path(root), Job, "job", _same)

    def __repr__(self) -> str:
        return f"JsonJobStore({str(self._folder.root)!r})"

    def save(self, job: Job) -> None:
        job, data = checked(Job, job, f"job {getattr(job, 'id', '?')}")
        require_safe_id("job", job.id)
        with self._folder.locks.hold(job.id):
            self._folder.write(job.id, data, job)

    def get(self, job_id: str) -> Job | None:
        return self._folder.load(job_id)

    def list(self, chat_id: str | None = None) -> list[Job]:
        jobs = self._folder.scan()
        if chat_id is not None:
            jobs = [j for j in jobs if j.chat_id == chat_id]
        return oldest_first(jobs)
