""""Quiz me" in the reader: three questions on a source up to the learner's place, written by
the model from those passages (or, with no model, built from the passages as cloze questions),
graded by the server like a session quiz, and each answer recorded as learner evidence on the
graph nodes the question's passage supports.

Open quizzes are held in memory (the last ``KEEP`` asked): a quiz answered after a restart is
refused with what to do; its answers, once graded, are in the learner ledger for good.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from studyhall.core.agents.quiz_writer import write_quiz
from studyhall.core.classroom.grading import grade_quiz
from studyhall.core.classroom.shuffle import choice_order
from studyhall.core.classroom.source_quiz_cloze import ClozeQuestion, cloze_quiz
from studyhall.core.contracts.ask_stream import AskMoment
from studyhall.core.contracts.learner import SourceQuizAnswered
from studyhall.core.contracts.search import Chunk
from studyhall.core.errors import InvalidInput, ModelError, NotEnoughReadYet, NotFound
from studyhall.core.library.learner.passage_support import supported_nodes
from studyhall.core.library.retrieval.chunking import SourcePlace
from studyhall.core.library.retrieval.moments import said_before
from studyhall.core.library.sources.notes.prose import plain_line
from studyhall.core.ports.models import ChatModel
from studyhall.core.ports.search import SearchIndex
from studyhall.core.ports.system import Clock, Ids
from studyhall.server.runtime.library.graph_reader import GraphReader

if TYPE_CHECKING:
    # A type only: the façades' packages reach into each other's modules (the graph reader,
    # the ledgers), so one façade's class is never imported at run time by another's part.
    from studyhall.server.runtime.learner import Learner

COUNT = 3
KEEP = 200
MAX_MODEL_PASSAGES = 12  # the most recent passages a model writes from
WHOLE = {"transcript": "lecture", "pdf": "PDF", "note": "note"}  # "the whole …"


@dataclass(frozen=True)
class OpenQuiz:
    id: str
    source_id: str
    args: dict[str, Any]  # ``quiz`` tool arguments
    passages: tuple[Chunk, ...]  # the passage each question was written from


def read_so_far(chunks: list[Chunk], position: SourcePlace) -> list[Chunk]:
    """The passages up to the learner's place, in reading order, and nothing past it: in a
    lecture what was said before the second (a window cut at it), in a PDF the pages up to
    the one on screen, in a note up to the heading in view. No place: the whole source."""
    if position.t is not None:
        t = position.t
        return [part for c in chunks if (part := said_before(c, t)) is not None]
    if position.page is not None:
        return [c for c in chunks if c.page is not None and c.page <= position.page]
    if position.at is not None:
        found = [i for i, c in enumerate(chunks) if c.anchor == position.at]
        return chunks[:found[0] + 1] if found else chunks
    return chunks


def _up_to(position: SourcePlace, last: Chunk) -> str:
    """Where the questions stop, in words: the learner's second, page or heading."""
    if position.t is not None:
        s = int(position.t)
        return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"
    if position.page is not None:
        return f"page {position.page}"
    return last.heading or "" if position.at is not None else ""


def whole(position: SourcePlace) -> bool:
    """No place given: the quiz is on the whole source."""
    return position.t is None and position.page is None and position.at is None


def _too_little(position: SourcePlace, first: Chunk) -> InvalidInput:
    if whole(position):
        return InvalidInput("This source has too little text to ask about.")
    here = _up_to(position, first) or "here"
    verb = "Watch" if first.kind == "transcript" else "Read"
    return NotEnoughReadYet(f"There is too little text up to {here} to ask about yet. {verb} a "
                            f"little further, or take a quiz on the whole {WHOLE.get(first.kind, 'source')}.")


class SourceQuizzes:
    def __init__(self, *, index: SearchIndex, graph: GraphReader, learner: Learner,
                 model: ChatModel, ids: Ids, clock: Clock) -> None:
        self._index = index
        self._graph = graph
        self._learner = learner
        self._model = model
        self._ids = ids
        self._clock = clock
        self._open: OrderedDict[str, OpenQuiz] = OrderedDict()
        self._lock = threading.Lock()

    async def open(self, position: SourcePlace) -> dict[str, Any]:
        """A new quiz on the source up to ``position``: its questions with the choices in the
        order shown (answers are displayed indices), never the correct ones."""
        chunks = self._index.chunks(position.source_id)
        if not chunks:
            raise NotFound(f"No imported source {position.source_id!r} has passages to quiz on. "
                           "Open Sources to see what is imported.")
        asked = read_so_far(chunks, position)
        if not asked:
            raise _too_little(position, chunks[0])
        quiz_id = self._ids.new("smq")
        written_by = "model"
        recent = asked[-MAX_MODEL_PASSAGES:]
        try:
            questions = await write_quiz(self._model, [(c.link, c.text) for c in recent], COUNT)
        except ModelError:  # no model set up, or it failed: the passages still make a quiz
            questions = []
        if not questions:  # nor when it wrote none that hold (a small model's runaway JSON)
            written_by, recent = "passages", asked
            # A note's passages are Markdown; a lecture's or a PDF's text is read as written.
            shown = plain_line if chunks[0].kind == "note" else str.strip
            questions = cloze_quiz([c.text for c in asked], [c.text for c in chunks], quiz_id,
                                   COUNT, plain=shown)
        if not questions:
            raise _too_little(position, chunks[0])
        quiz = OpenQuiz(quiz_id, position.source_id, {"questions": [q.args for q in questions]},
                        tuple(recent[q.passage] for q in questions))
        with self._lock:
            self._open[quiz_id] = quiz
            while len(self._open) > KEEP:
                self._open.popitem(last=False)
        return {
            "quiz_id": quiz_id, "source_id": position.source_id, "written_by": written_by,
            "passages": len(recent), "up_to": _up_to(position, asked[-1]),
            "whole": whole(position),
            "questions": [_shown(quiz_id, i, q, quiz.passages[i]) for i, q in enumerate(questions)],
        }

    def answer(self, source_id: str, quiz_id: str, answer: Any) -> dict[str, Any]:
        """Grade the answer (``InvalidAnswer`` when it does not fit the quiz) and record each
        question's verdict on the nodes its passage supports; the nodes' mastery after it."""
        with self._lock:
            quiz = self._open.get(quiz_id)
        if quiz is None or quiz.source_id != source_id:
            raise NotFound(f"There is no open quiz {quiz_id!r} on this source (the app may have "
                           "restarted). Press Quiz me for new questions.")
        graded = grade_quiz(quiz_id, quiz.args, answer)
        nodes = self._graph.snapshot().nodes
        now = self._clock.now()
        records: list[SourceQuizAnswered] = []
        touched: dict[str, str] = {}
        for result, passage in zip(graded.results, quiz.passages):
            for node in supported_nodes(nodes, source_id, passage.text):
                touched[node.id] = node.text
                records.append(SourceQuizAnswered(
                    id=self._ids.new("sqa"), node_id=node.id, verdict=result.verdict,
                    source_id=source_id, quiz_id=quiz_id, question=result.index, at=now,
                    chosen=_picked(quiz.args, result.index, result.chosen),
                    right=result.expected[:10]))
        with self._lock:  # answered once: a second submission would count twice
            if self._open.pop(quiz_id, None) is None:
                raise NotFound(f"Quiz {quiz_id!r} was already answered. Press Quiz me for new questions.")
        if records:
            self._learner.record_quiz(records)
        out = graded.to_output(now.isoformat())
        out["recorded"] = [{"node_id": nid, "text": text, "mastery": self._learner.mastery(nid)}
                           for nid, text in touched.items()]
        return out


def _picked(args: dict[str, Any], index: int, chosen: tuple[int, ...] | None
            ) -> tuple[str, ...]:
    """The texts picked (the misconception rule compares them across answers)."""
    choices = args["questions"][index]["choices"]
    return tuple(choices[i] for i in chosen or () if 0 <= i < len(choices))[:10]


def _shown(quiz_id: str, index: int, question: ClozeQuestion, passage: Chunk) -> dict[str, Any]:
    choices = question.args["choices"]
    order = choice_order(quiz_id, index, len(choices))
    return {"prompt": question.args["prompt"], "choices": [choices[i] for i in order],
            "passage": AskMoment.of(passage).model_dump()}
