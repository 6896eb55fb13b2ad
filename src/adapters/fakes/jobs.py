"""``InMemoryJobStore``: the JobStore contract held in a dict."""

from __future__ import annotations

import threading

from studyhall.adapters.store.shape_guard import checked, is_safe_id, require_safe_id
from studyhall.adapters.store.shared_semantics import oldest_first
from studyhall.core.contracts.jobs import Job


class InMemoryJobStore:
    def __init__(self) -> None:
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()

    def save(self, job: Job) -> None:
        job, _ = checked(Job, job, f"job {getattr(job, 'id', '?')}")
        require_safe_id("job", job.id)
        with self._lock:
            self._jobs[job.id] = job

    def get(self, job_id: str) -> Job | None:
        if not is_safe_id(job_id):
            return None
        with self._lock:
            return self._jobs.get(job_id)

    def list(self, chat_id: str | None = None) -> list[Job]:
        with self._lock:
            jobs = list(self._jobs.values())
        return oldest_first([j for j in jobs if chat_id is None or j.chat_id == chat_id])
