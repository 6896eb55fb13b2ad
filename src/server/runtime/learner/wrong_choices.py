"""``WrongChoices``: the evidence behind the misconception rule (``core/library/learner/
misconceptions.py``) — the graph's missed session-quiz answers, with what was picked and what was
right read from their session's transcript (the graded tool part the quiz event came from), and
the missed "Quiz me" answers, which carry their texts in the learner ledger.

A graded answer never changes once its part has its output, so what a transcript said of a ref is
kept; a session is read again only for a ref not seen in it yet. Blocking (file reads): for a
worker thread.
"""

from __future__ import annotations

import threading
from datetime import datetime

from studyhall.core.classroom.quiz_answers import SessionAnswer, answer_ref, session_answers
from studyhall.core.library.learner.evidence import aware
from studyhall.core.library.learner.misconceptions import (
    Misconception,
    WrongChoice,
    key,
    misconceptions,
)
from studyhall.core.library.learner.model import LearnerModel
from studyhall.core.ports.storage import ChatStore, GraphStore


class WrongChoices:
    def __init__(self, *, chat_store: ChatStore, graph_store: GraphStore) -> None:
        self._chats = chat_store
        self._graph = graph_store
        self._answers: dict[str, dict[str, SessionAnswer]] = {}  # chat -> ref -> its answer
        self._missing: set[tuple[str, str]] = set()  # (chat, ref) its transcript lacks
        self._lock = threading.Lock()

    def patterns(self, model: LearnerModel, node_id: str | None = None) -> list[Misconception]:
        """Every live misconception pattern (on ``node_id`` alone, when given), latest first."""
        return misconceptions(self.of(model, node_id), model.score, model.now)

    def of(self, model: LearnerModel, only: str | None = None) -> list[WrongChoice]:
        snapshot = model.snapshot
        follow = snapshot.absorbed
        out: list[WrongChoice] = []
        for event in self._graph.quiz_events().records:
            node_id = follow.get(event.node_id, event.node_id)
            if event.verdict != "miss" or (only is not None and node_id != only) \
                    or snapshot.node(node_id) is None:
                continue
            ref = answer_ref(event.tool_call_id, event.question_index)
            answer = self._answer(event.source_id, ref)
            if answer is not None:
                out.append(_wrong(node_id, event.at, answer.chosen, answer.expected,
                                  f"{event.source_id}/{ref}"))
        for node_id, a in model.learner.quiz_answers:
            if a.verdict == "miss" and only in (None, node_id) \
                    and snapshot.node(node_id) is not None:
                out.append(_wrong(node_id, a.at, a.chosen, a.right,
                                  f"{a.quiz_id}/q{a.question + 1}"))
        return out

    def _answer(self, chat_id: str, ref: str) -> SessionAnswer | None:
        with self._lock:
            known = self._answers.get(chat_id, {}).get(ref)
            if known is not None or (chat_id, ref) in self._missing:
                return known
        record = self._chats.get(chat_id)
        found = {a.ref: a for a in session_answers(record.messages)} if record else {}
        with self._lock:
            self._answers[chat_id] = found
            if ref not in found:
                self._missing.add((chat_id, ref))
        return found.get(ref)


def _wrong(node_id: str, at: datetime, chosen: tuple[str, ...], right: tuple[str, ...],
           ref: str) -> WrongChoice:
    """Only the distractors count as picked (a multiple-choice answer may hold right ones)."""
    rights = {key(r) for r in right}
    return WrongChoice(node_id, aware(at), tuple(c for c in chosen if key(c) not in rights),
                       right, ref)
