"""The artifact desk: the sole writer of ``artifacts/``. It starts artifact jobs from a scope
(one background job per kind, in parallel), keeps what every artifact job wrote — from a scope
or in a session — and lists, shows and deletes kept artifacts.

Keeping is idempotent by job: an artifact's id comes from its job and kind, a kept (or deleted)
id is never kept again, and at start-up every finished job whose artifacts a crash kept from
the store is caught up. Flashcards join the review queue as they are kept and leave it when
their artifact is deleted (the ``Learner``'s ``keep_flashcards`` / ``retire_flashcards``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from studyhall.core.contracts.artifacts import (
    Artifact,
    ArtifactCounts,
    ArtifactRemoved,
    Scope,
    artifact_id,
    live_artifacts,
    removal_id,
)
from studyhall.core.contracts.jobs import Job, JobKind
from studyhall.core.errors import Conflict, InvalidInput, NotFound, StudyhallError
from studyhall.core.ports.storage import ArtifactStore, ChatStore, JobStore
from studyhall.core.ports.system import Clock
from studyhall.core.workbench.kinds import ARTIFACT_KINDS, MAX_CARDS, MIN_CARDS, SPECS
from studyhall.core.workbench.markdown import artifact_markdown
from studyhall.server.runtime.events import JobFinished
from studyhall.server.runtime.workbench.artifact_scope import ScopeResolver, scope_from
from studyhall.server.runtime.workbench.jobs import JobRunner

log = logging.getLogger("studyhall.artifacts")

MAX_BRIEF = 2000
__all__ = ["ARTIFACT_KINDS", "MAX_CARDS", "MIN_CARDS", "ArtifactDesk"]  # the routes' vocabulary


class FlashcardQueue(Protocol):
    """The learner side of flashcards (the ``Learner`` façade)."""

    async def keep_flashcards(self, artifact_id: str,
                              cards: Sequence[Mapping[str, str | None]]) -> int: ...

    async def retire_flashcards(self, artifact_id: str) -> None: ...


def checked_kinds(kinds: Sequence[str]) -> list[JobKind]:
    """The kinds asked for, each once, in the order asked; ``InvalidInput`` for anything else."""
    if not kinds:
        raise InvalidInput(f"Ask for at least one kind: {', '.join(ARTIFACT_KINDS)}.")
    unknown = [k for k in kinds if k not in ARTIFACT_KINDS]
    if unknown:
        raise InvalidInput(f"Unknown artifact kind(s) {', '.join(map(repr, unknown))}: use "
                           f"{', '.join(ARTIFACT_KINDS)}.")
    return [k for k in ARTIFACT_KINDS if k in kinds]  # canonical order, no repeats


def job_input(kind: JobKind, scope: Scope, brief: str | None, count: int | None) -> dict[str, Any]:
    """A scope job's stored input: the scope (re-resolved if a restart re-runs it) and the
    writer's brief in the terms the session jobs use (``topic``, ``focus``, ``count``...)."""
    out: dict[str, Any] = {"scope": scope.model_dump(mode="json"), "topic": scope.label}
    if SPECS[kind].headline == "goal":
        out["goal"] = brief or f"Understand {scope.label}"
    if brief:
        out["focus"] = brief
    if kind == "flashcards" and count is not None:
        out["count"] = count
    return out


def item_view(artifact: Artifact) -> dict[str, Any]:
    counts: dict[str, Any] = {"dropped": artifact.counts.dropped}
    if artifact.counts.cards is not None:
        counts["cards"] = artifact.counts.cards
    return {"id": artifact.id, "kind": artifact.kind, "title": artifact.title,
            "scope": artifact.scope.model_dump(mode="json"),
            "created_at": artifact.created_at.isoformat(), "job_id": artifact.job_id,
            "chat_id": artifact.chat_id, "counts": counts}


def _counts(kind: str, content: Mapping[str, Any]) -> ArtifactCounts:
    dropped = content.get("dropped")
    cards = content.get("cards")
    return ArtifactCounts(
        cards=len(cards) if kind == "flashcards" and isinstance(cards, list) else None,
        dropped=dropped if isinstance(dropped, int) and dropped >= 0 else 0)


def _title(kind: str, content: Mapping[str, Any], scope: Scope) -> str:
    title = content.get("title")
    if isinstance(title, str) and title.strip():
        return " ".join(title.split())[:300]
    noun = SPECS[kind].noun if kind in SPECS else kind  # type: ignore[index]
    return f"{noun[:1].upper()}{noun[1:]}: {scope.label or scope.type}"[:300]


class ArtifactDesk:
    def __init__(self, *, store: ArtifactStore, jobs: JobRunner, job_store: JobStore,
                 chats: ChatStore, resolver: ScopeResolver, cards: FlashcardQueue, clock: Clock,
                 no_model: Callable[[JobKind], str | None]) -> None:
        self._store = store
        self._jobs = jobs
        self._job_store = job_store
        self._chats = chats
        self._resolver = resolver
        self._cards = cards
        self._clock = clock
        self._no_model = no_model
        self._lock = asyncio.Lock()  # one keep or delete at a time: "already kept?" holds

    # --- starting -----------------------------------------------------------------------------

    async def start(self, kinds: Sequence[str], scope: Mapping[str, Any] | Scope,
                    brief: str | None = None, count: int | None = None) -> list[Job]:
        """One background job per kind over the scope; ``EmptyScope`` when it holds nothing,
        ``Conflict`` when no model can write (checked before any job exists)."""
        wanted = checked_kinds(kinds)
        if count is not None and not MIN_CARDS <= count <= MAX_CARDS:
            raise InvalidInput(f"count must be a whole number from {MIN_CARDS} to {MAX_CARDS}.")
        brief = " ".join(brief.split()) if brief else None
        if brief and len(brief) > MAX_BRIEF:
            raise InvalidInput(f"The brief is {len(brief)} characters; keep it under {MAX_BRIEF}.")
        for kind in wanted:
            reason = self._no_model(kind)
            if reason:
                raise Conflict(reason)
        asked = scope if isinstance(scope, Scope) else scope_from(scope)
        found = await self._resolver.resolve(asked)
        labelled = asked.model_copy(update={"label": found.label})
        return [self._jobs.spawn_scoped(kind, job_input(kind, labelled, brief, count))
                for kind in wanted]

    # --- keeping ------------------------------------------------------------------------------

    async def job_finished(self, finished: JobFinished) -> None:
        """A job finished well (session and scope jobs alike): keep what it wrote, before its
        delivery. What cannot be kept now is kept by the start-up catch-up."""
        try:
            await self.keep_job(finished.job)
        except StudyhallError as e:  # a bug is the bus's to log (with its traceback)
            log.error("[job %s] its result was not kept: %s", finished.job.id, e)

    async def keep_job(self, job: Job) -> list[Artifact]:
        """Keep what a finished job wrote; what was kept before (or deleted since) is not kept
        again. Returns the artifacts kept now."""
        made = await asyncio.to_thread(self._artifacts_of, job)
        if not made:
            return []
        kept: list[Artifact] = []
        async with self._lock:
            known = await asyncio.to_thread(self._known_ids)
            for artifact in made:
                if artifact.id in known:
                    continue
                if artifact.kind == "flashcards":  # idempotent: a crash before the keep redoes it
                    cards = [c for c in artifact.content.get("cards", []) if isinstance(c, dict)]
                    await self._cards.keep_flashcards(artifact.id, cards)
                await asyncio.to_thread(self._store.keep, [artifact])
                kept.append(artifact)
                log.info("[job %s] kept artifact %s", job.id, artifact.id)
        return kept

    def _known_ids(self) -> set[str]:
        return {a.id for a in self._store.kept().records}

    def _artifacts_of(self, job: Job) -> list[Artifact]:
        if job.kind not in ARTIFACT_KINDS or job.outcome != "done" or not job.result:
            return []
        written = job.result.get("artifacts")
        if not isinstance(written, dict):
            return []
        scope = self._scope_of(job)
        at = job.finished_at or job.updated_at
        return [Artifact(id=artifact_id(job.id, kind), kind=kind,
                         title=_title(kind, content, scope), scope=scope, created_at=at,
                         job_id=job.id, chat_id=job.chat_id, content=dict(content),
                         counts=_counts(kind, content))
                for kind, content in written.items()
                if kind in ARTIFACT_KINDS and isinstance(content, dict)]

    def _scope_of(self, job: Job) -> Scope:
        if job.chat_id is None:
            return scope_from(job.input.get("scope") or {"type": "graph"})
        record = self._chats.get(job.chat_id)
        label = (record.title or record.topic) if record is not None else None
        return Scope(type="session", id=job.chat_id,
                     label=(label or str(job.input.get("topic") or "A session"))[:300])

    async def startup(self) -> None:
        """The app's start-up step: keep what finished jobs wrote that a crash kept from the
        store (and session jobs finished before artifacts were kept)."""
        jobs = await asyncio.to_thread(self._job_store.list)
        for job in jobs:
            if job.outcome != "done" or job.kind not in ARTIFACT_KINDS:
                continue
            try:
                await self.keep_job(job)
            except StudyhallError as e:
                log.error("[job %s] its artifacts could not be kept: %s", job.id, e)

    # --- reading and deleting -----------------------------------------------------------------

    def _live(self) -> list[Artifact]:
        return live_artifacts(self._store.kept().records, self._store.removed().records)

    def list(self) -> list[dict[str, Any]]:
        """Every artifact not deleted, newest first (``GET /api/artifacts``)."""
        return [item_view(a) for a in self._live()]

    def artifact(self, artifact: str) -> Artifact:
        found = next((a for a in self._live() if a.id == artifact), None)
        if found is None:
            raise NotFound(f"There is no artifact {artifact!r} (it may have been deleted).")
        return found

    def get(self, artifact: str) -> dict[str, Any]:
        """One artifact with its content and its Markdown (``GET /api/artifacts/{id}``)."""
        found = self.artifact(artifact)
        return {**item_view(found), "content": found.content,
                "markdown": artifact_markdown(found.kind, found.content)}

    async def delete(self, artifact: str) -> None:
        """Delete (a tombstone; the ledger stays append-only); its flashcards leave the review
        queue first, so a crash in between leaves it listed, to delete again."""
        async with self._lock:
            found = await asyncio.to_thread(self.artifact, artifact)
            if found.kind == "flashcards":
                await self._cards.retire_flashcards(found.id)
            tombstone = ArtifactRemoved(id=removal_id(found.id), artifact_id=found.id,
                                        at=self._clock.now())
            await asyncio.to_thread(self._store.remove, [tombstone])
        log.info("[artifact %s] deleted", found.id)
