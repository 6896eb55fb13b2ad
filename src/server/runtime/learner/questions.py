"""``ReviewQuestions``: with a model, one review question per reviewable node, written the first
time the queue shows the node (in the background: the model-free prompt is served meanwhile),
checked against the node's evidence (a verbatim quote that backs the answer), and stored
append-only. A failed check or a model error is logged and the node keeps its model-free
prompt; it is tried again at most once a day.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from datetime import date

from studyhall.core.agents.review_question_writer import write_review_question
from studyhall.core.contracts.learner import ReviewQuestionWritten
from studyhall.core.errors import StudyhallError
from studyhall.core.library.extraction.evidence import normalize_ws
from studyhall.core.library.learner.questions import check_question, evidence_texts
from studyhall.core.ports.models import ChatModel
from studyhall.core.ports.storage import LearnerStore
from studyhall.core.ports.system import Clock, Ids
from studyhall.core.workbench.evidence import backing_problem
from studyhall.server.runtime.learner.ledgers import stored_questions
from studyhall.server.runtime.library.graph_reader import GraphReader
from studyhall.server.runtime.supervisor import Supervisor

log = logging.getLogger("studyhall.review")


class ReviewQuestions:
    def __init__(self, *, graph: GraphReader, learner_store: LearnerStore, model: ChatModel,
                 supervisor: Supervisor, clock: Clock, ids: Ids,
                 no_model: Callable[[], str | None], model_name: Callable[[], str]) -> None:
        self._graph = graph
        self._store = learner_store
        self._model = model
        self._supervisor = supervisor
        self._clock = clock
        self._ids = ids
        self._no_model = no_model  # why no model can answer, told without calling it
        self._model_name = model_name
        self._pending: set[str] = set()
        self._tried: dict[str, date] = {}  # node id → the day its last attempt failed
        self._also_read: date | None = None  # the day the card-less topics were last read

    def want(self, cards: Iterable[dict[str, object]],
             also: Callable[[], list[str]] = list) -> None:
        """Start writing questions for the shown cards that have none yet, and for the nodes
        ``also`` names (read in the background: a topic no model-free card was worth making
        for); call on the event loop, returns at once. Nothing happens with no usable model."""
        today = self._clock.now().date()
        # A node showing a stored question or the learner's own flashcard needs no question.
        wanted = [str(c["node_id"]) for c in cards
                  if c.get("kind") not in ("question", "flashcard")]
        wanted = [n for n in wanted if self._worth_trying(n, today)]
        if not wanted and self._also_read == today:
            return  # the card-less topics are read once a day: each read builds the model
        if self._supervisor.closing or self._no_model() is not None:
            return  # model-free prompts only; the reason is the settings screen's to show
        self._also_read = today
        self._pending.update(wanted)
        self._supervisor.spawn("review questions", self._write_all(wanted, also))

    def _worth_trying(self, node_id: str, today: date) -> bool:
        return node_id not in self._pending and self._tried.get(node_id) != today

    async def _write_all(self, node_ids: list[str], also: Callable[[], list[str]]) -> None:
        try:
            today = self._clock.now().date()
            more = [n for n in await asyncio.to_thread(also) if self._worth_trying(n, today)]
            self._pending.update(more)
            node_ids += more
            snapshot = await asyncio.to_thread(self._graph.snapshot)
            have = await asyncio.to_thread(stored_questions, self._store)
            for node_id in node_ids:
                node = snapshot.node(node_id)
                if node is None or node_id in have:
                    continue
                if not await self._write(node_id, evidence_texts(node)):
                    self._tried[node_id] = self._clock.now().date()
        finally:
            self._pending.difference_update(node_ids)

    async def _write(self, node_id: str, evidence: list[str]) -> bool:
        try:
            draft = await write_review_question(self._model, evidence[0], evidence[1:])
        except StudyhallError as error:
            log.warning("No review question for %s (model-free prompt kept; retried tomorrow): "
                        "%s", node_id, error)
            return False
        # The quote must be the node's, and then back the answer word for word as an
        # artifact's card must (``core/workbench/evidence.py``): no answer the evidence lacks.
        problem = check_question(draft.question, draft.answer, draft.evidence_quote, evidence) \
            or backing_problem(draft.answer, draft.evidence_quote,
                               next(t for t in evidence if normalize_ws(draft.evidence_quote)
                                    in normalize_ws(t)))
        if problem is not None:
            log.warning("Review question for %s dropped (model-free prompt kept; retried "
                        "tomorrow): %s", node_id, problem)
            return False
        record = ReviewQuestionWritten(
            id=self._ids.new("rq"), node_id=node_id, question=draft.question[:1000],
            answer=draft.answer[:2000], evidence_quote=draft.evidence_quote[:2000],
            model=self._model_name(), at=self._clock.now())
        await asyncio.to_thread(self._store.append_questions, [record])
        return True
