"""A quiz question's difficulty travels from the teacher's arguments to the quiz event the
merger writes, through the fold (and its cache) into the estimator, which weighs the answer by
it: a hard question answered right says more than an easy one, and the explanation says so."""

from __future__ import annotations

from studyhall.adapters.fakes import FixedClock, InMemoryGraphStore, SequentialIds
from studyhall.core.agents.auditor import ModelAuditor
from studyhall.core.agents.extractor import ModelExtractor
from studyhall.core.contracts.chat import ToolCallPart
from studyhall.core.contracts.graph import QuizEvent
from studyhall.core.library.extraction.batching import Batch
from studyhall.core.library.extraction.coverage import chat_views
from studyhall.core.library.extraction.merge_base import SharedGraph
from studyhall.core.library.extraction.pipeline import ExtractionPipeline
from studyhall.core.library.extraction.source_kinds import chat_transcript
from studyhall.core.library.graph.snapshot import Ledgers, fold_snapshot, graph_snapshot
from studyhall.core.library.graph.trail import pack_trail, unpack_trail

from tests.support.chat_script import scripted
from tests.support.graph_events import cp, prop
from tests.support.library_session import CHAT, T0, at, good_extraction, keep_all, session


def session_with(difficulties: list[str | None]):
    messages = session()
    quiz = messages[-1]
    (part,) = quiz.parts
    assert isinstance(part, ToolCallPart)
    questions = [{**q, "difficulty": d} if d else q
                 for q, d in zip(part.input["questions"], difficulties, strict=True)]
    part = part.model_copy(update={"input": {**part.input, "questions": questions}})
    return [*messages[:-1], quiz.model_copy(update={"parts": (part,)})]


async def test_the_merger_records_each_questions_difficulty():
    store = InMemoryGraphStore()
    pipeline = ExtractionPipeline(
        store=store, base=SharedGraph(store, lambda: graph_snapshot(store)),
        clock=FixedClock(T0), ids=SequentialIds())
    model = scripted(extractor=[good_extraction()], auditor=[keep_all("p1", "p2")])
    kind = chat_transcript(ModelExtractor(model, "extract"), ModelAuditor(model, "audit"))
    batch = Batch(CHAT, tuple(chat_views(CHAT, session_with(["hard", None]))))
    await pipeline.run_batch(batch, kind, run_id="run_1")
    events = sorted(store.quiz_events().records, key=lambda e: e.question_index)
    assert [(e.question_index, e.verdict, e.difficulty) for e in events] == [
        (0, "correct", "hard"), (1, "miss", None)]
    node = next(n for n in graph_snapshot(store).nodes if n.quiz[0].question_index == 0)
    assert node.quiz[0].difficulty == "hard"
    assert "a hard question: correct" in node.score.explanation[1]


def quiz_event(difficulty: str | None) -> QuizEvent:
    return QuizEvent(id="quz_1", node_id="n", verdict="correct", source_id=CHAT,
                     tool_call_id="c", question_index=0, run_id="r1", at=at(1),
                     difficulty=difficulty)


def node_after(difficulty: str | None):
    return fold_snapshot(Ledgers(propositions=[prop("n")], quiz_events=[quiz_event(difficulty)],
                                 checkpoints=[cp("r1")])).node("n")


def test_a_hard_question_answered_right_says_more_than_an_easy_one():
    easy, unmarked, hard = (node_after(d).value for d in ("easy", None, "hard"))
    assert easy < unmarked < hard  # an unmarked question counts as medium
    assert node_after(None).score.signals[0].difficulty == ""


def test_the_difficulty_survives_the_fold_cache():
    rows = node_after("hard").rows()
    assert unpack_trail(pack_trail(rows)) == rows
    assert unpack_trail(pack_trail(rows))[1][0][7] == "hard"
