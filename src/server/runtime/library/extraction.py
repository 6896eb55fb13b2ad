"""The extraction scheduler: when to run the library pipeline, one run per source at a time.

- After a turn (its reaction to ``TurnEnded``) it starts a run when the chat's uncovered tokens reach
  ``chunk_tokens``; ``start`` runs one explicitly. A second start for a source with a run in
  flight joins that run (single-flight per source).
- A run extracts the greedy batches of the oldest uncovered views; each batch merges (and
  checkpoints) on its own, as merge id ``<run_id>.b<n>``.
- ``abort`` cancels the run's task — the model call in flight is cancelled and the batch in
  flight writes nothing (its merge has not started: merges never await). Shutdown does the
  same to every run (each is a task of the app's supervisor).
- The registry keeps every run's progress and outcome for the activity feed.
- After a run that merged anything, it publishes ``GraphMerged`` (the app's table schedules the
  graph upkeep: new nodes get vectors, clusters and positions without waiting for the next
  import).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Literal

from studyhall.core.agents.auditor import PROMPT_NAME as AUDITOR_PROMPT
from studyhall.core.agents.auditor import ModelAuditor
from studyhall.core.agents.extractor import PROMPT_NAME as EXTRACTOR_PROMPT
from studyhall.core.agents.extractor import ModelExtractor
from studyhall.core.contracts.chat import ChatRecord, Usage, add_usage, session_names
from studyhall.core.errors import ModelNotConfigured, NotFound, StudyhallError
from studyhall.core.library.extraction.coverage import View, chat_views
from studyhall.core.library.extraction.coverage import uncovered_tokens as count_uncovered
from studyhall.core.library.extraction.finding_placement import Session, standing_session
from studyhall.core.library.extraction.merge_base import SharedGraph
from studyhall.core.library.extraction.merger import MergePlan
from studyhall.core.library.extraction.nearest import NeighbourFinder
from studyhall.core.library.extraction.pipeline import ExtractionPipeline, SourceKind, Stage
from studyhall.core.library.extraction.source_kinds import chat_transcript
from studyhall.core.library.extraction.tally import plan_usage
from studyhall.core.ports.models import ChatModel, Embedder
from studyhall.core.ports.storage import ChatStore, GraphStore, SettingsStore
from studyhall.core.ports.system import Clock, Ids
from studyhall.server.runtime.library.graph_reader import GraphReader
from studyhall.server.runtime.library.run_book import RunBook
from studyhall.server.runtime.reactions import GraphMerged, Reactions, TurnEnded
from studyhall.server.runtime.supervisor import Supervisor

log = logging.getLogger("studyhall.extraction")

RunStatus = Literal["running", "done", "error", "aborted"]
KEEP_FINISHED = 50


@dataclass(frozen=True)
class SourcePlan:
    """What a run over one source extracts: its views now, and the kind of source they are."""

    views: Callable[[], Sequence[View]]
    kind: SourceKind


@dataclass
class ExtractionRun:
    id: str
    source_id: str
    reason: str  # "trigger" | "explicit" | "import" ...
    started_at: datetime
    status: RunStatus = "running"
    stage: Stage | Literal["planning", "finished"] = "planning"
    batches_total: int = 0
    batches_done: int = 0
    propositions: int = 0
    edges: int = 0
    drops: list[str] = field(default_factory=list)
    error: str | None = None
    usage: Usage | None = None
    finished_at: datetime | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def enter(self, stage: Stage) -> None:
        self.stage = stage

    def to_dict(self) -> dict[str, Any]:
        return {
            "run_id": self.id,
            "kind": "extraction",
            "source_id": self.source_id,
            "reason": self.reason,
            "status": self.status,
            "stage": self.stage,
            "progress": {"done": self.batches_done, "total": self.batches_total},
            "propositions": self.propositions,
            "edges": self.edges,
            "dropped": len(self.drops),
            "drops": list(self.drops),
            "error": self.error,
            "usage": self.usage.model_dump() if self.usage else None,
            "started_at": self.started_at.isoformat(),
            "finished_at": self.finished_at.isoformat() if self.finished_at else None,
        }


class ExtractionScheduler:
    def __init__(
        self,
        *,
        chat_store: ChatStore,
        graph_store: GraphStore,
        settings_store: SettingsStore,
        chat_model: ChatModel,
        embedder: Embedder,
        by_meaning: NeighbourFinder,
        clock: Clock,
        ids: Ids,
        prompt: Callable[[str], str],
        supervisor: Supervisor,
        reader: GraphReader,
        reactions: Reactions,
        no_model: Callable[[], str | None],
    ) -> None:
        self._chats = chat_store
        # Why the extractor's model plainly cannot answer (no key), told without calling it.
        self._no_model = no_model
        self._settings = settings_store
        self._model = chat_model
        self._embedder = embedder  # judges which topic a session's finding is about
        self._by_meaning = by_meaning  # ... among these too, worded unlike it
        self._clock = clock
        self._ids = ids
        self._prompt = prompt
        self.reader = reader
        self._reactions = reactions
        self._supervisor = supervisor  # runs every run; once it closes, no follow-up starts
        self._pipeline = ExtractionPipeline(
            store=graph_store, base=SharedGraph(graph_store, self.reader.snapshot), clock=clock,
            ids=ids)
        self._book = RunBook[ExtractionRun](KEEP_FINISHED)
        self._active: dict[str, ExtractionRun] = {}  # source id -> its run in flight

    # --- coverage ---------------------------------------------------------------------------

    def no_model(self) -> str | None:
        """Why no run could answer now (no key for the extractor's model), or None."""
        return self._no_model()

    def chat_views(self, chat_id: str) -> list[View]:
        return chat_views(chat_id, self._chat(chat_id).messages)

    def _chat(self, chat_id: str) -> ChatRecord:
        record = self._chats.get(chat_id)
        if record is None:
            raise NotFound(f"There is no chat {chat_id!r}.")
        return record

    def chat_plan(self, chat_id: str) -> SourcePlan:
        chat = self._chat(chat_id)  # an unknown chat fails here, not in the run
        names = session_names(chat)
        return SourcePlan(lambda: self.chat_views(chat_id), chat_transcript(
            ModelExtractor(self._model, self._prompt(EXTRACTOR_PROMPT)),
            ModelAuditor(self._model, self._prompt(AUDITOR_PROMPT)),
            session=Session(chat_id, names[0], names, chat.node_id), embedder=self._embedder,
            by_meaning=self._by_meaning))

    def covered(self, source_id: str) -> set[str]:
        return self._pipeline.covered(source_id)

    def uncovered_tokens(self, chat_id: str) -> int:
        return count_uncovered(self.chat_views(chat_id), self.covered(chat_id))

    # --- starting, joining, aborting --------------------------------------------------------

    def on_turn_end(self, ended: TurnEnded) -> None:
        """A turn ended: start a run once enough is uncovered. Never raises."""
        chat_id = ended.chat_id
        try:
            if chat_id in self._active:
                return  # the running run will not see this turn; the next trigger will
            if self._no_model() is not None:
                return  # no key: the session dock says so; a run would only fail
            chunk = self._settings.load().chunk_tokens
            views = self.chat_views(chat_id)
            # A chat shorter than a chunk cannot be due, whatever is covered: no ledger read.
            if (count_uncovered(views, set()) >= chunk
                    and count_uncovered(views, self.covered(chat_id)) >= chunk):
                self.start(chat_id, reason="trigger")
        except StudyhallError as e:
            log.warning("[extraction] trigger for %s skipped: %s", chat_id, e)

    def start(self, source_id: str, plan: SourcePlan | None = None,
              reason: str = "explicit") -> ExtractionRun:
        """Run (or join) extraction for a source now; returns the run in flight."""
        running = self._active.get(source_id)
        if running is not None:
            return running
        plan = plan or self.chat_plan(source_id)
        run = ExtractionRun(id=self._ids.new("run"), source_id=source_id, reason=reason,
                            started_at=self._clock.now())
        self._active[source_id] = run
        run.task = self._supervisor.spawn(f"extraction {run.id}", self._execute(run, plan))
        run.task.add_done_callback(lambda _task: self._settle(run))
        self._book.add(run)
        return run

    def get(self, run_id: str) -> ExtractionRun | None:
        return self._book.get(run_id)

    def runs(self) -> list[ExtractionRun]:
        return self._book.runs()

    def abort(self, run_id: str) -> bool:
        """Cancel a running run; False when it is unknown or already finished."""
        return self._book.abort(run_id)

    # --- the run ----------------------------------------------------------------------------

    async def _execute(self, run: ExtractionRun, plan: SourcePlan) -> None:
        tag = f"[extraction {run.id}]"
        try:
            why = self._no_model()
            if why is not None:  # fail at once, in the learner's words, before any call
                raise ModelNotConfigured(why, role="extractor")
            chunk = self._settings.load().chunk_tokens
            # Warm the fold off the event loop (a cold read of a large graph takes seconds);
            # the batches' own reads then fold only what was appended since.
            await asyncio.to_thread(self.reader.snapshot)
            kind = self._named(plan.kind)
            batches = self._pipeline.batches(plan.views(), kind, chunk)
            run.batches_total = len(batches)
            log.info("%s %s: %d batch(es) for %s", tag, run.reason, len(batches), run.source_id)
            for n, batch in enumerate(batches, start=1):
                merged = await self._pipeline.run_batch(
                    batch, kind, run_id=f"{run.id}.b{n}", on_stage=run.enter)
                self._account(run, merged, tag)
            run.status = "done"
        except asyncio.CancelledError:
            run.status = "aborted"
            run.error = "Stopped before it finished; nothing of the batch in flight was written."
            log.info("%s aborted after %d/%d batch(es)", tag, run.batches_done,
                     run.batches_total)
            raise
        except StudyhallError as e:
            run.status, run.error = "error", str(e)
            log.warning("%s failed, nothing written for the batch in flight: %s", tag, e)
        except Exception as e:  # a side channel: contained, logged, never raised into a turn
            run.status = "error"
            run.error = "Extraction failed unexpectedly; see the log. Nothing was written for " \
                        "the batch in flight, and the next trigger will retry."
            log.exception("%s failed: %s", tag, type(e).__name__)
        finally:
            self._settle(run)
            if run.batches_done and not self._supervisor.closing:
                # Reactions are contained by the bus: a side channel never fails the run.
                self._reactions.notify(GraphMerged(run.id, run.source_id))

    def _named(self, kind: SourceKind) -> SourceKind:
        """The session's topic as it stands: its first name, or the topic made when topics were
        keyed by their text (``standing_session``)."""
        if kind.session is None:
            return kind
        return replace(kind, session=standing_session(kind.session, self.reader.snapshot().node))

    def _settle(self, run: ExtractionRun) -> None:
        """Close a run's books. Also runs from the task's done callback, because a task
        cancelled before its first step never enters ``_execute``."""
        if run.status == "running" and run.task is not None and run.task.done():
            run.status, run.error = "aborted", "Stopped; nothing of the batch in flight was written."
        if run.finished_at is None and run.status != "running":
            run.stage = "finished"
            run.finished_at = self._clock.now()
        if self._active.get(run.source_id) is run and run.status != "running":
            del self._active[run.source_id]

    def _account(self, run: ExtractionRun, merged: MergePlan, tag: str) -> None:
        run.batches_done += 1
        run.propositions += len(merged.propositions) + len(merged.identities)
        run.edges += len(merged.edges)
        run.drops += [str(d) for d in merged.drops]
        for drop in merged.drops:
            log.info("%s dropped %s", tag, drop)
        run.usage = add_usage(run.usage, plan_usage(merged))
