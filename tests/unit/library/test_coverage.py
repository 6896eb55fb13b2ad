"""Coverage: views, fingerprints, the uncovered diff and token-budgeted batches."""

from __future__ import annotations

from studyhall.core.contracts.chat import DataPart, Message, SteerPart, TextPart, ToolCallPart
from studyhall.core.library.extraction.batching import make_batches
from studyhall.core.library.extraction.coverage import (
    chat_views,
    covered_fingerprints,
    fingerprint,
    message_view,
    uncovered,
    uncovered_tokens,
)
from studyhall.core.library.extraction.tokens import estimate_tokens

from tests.support.library_session import CHAT, at, quiz, session, text


def test_view_is_the_text_lines_without_blank_lines():
    m = text("m_1", "user", "first line  \n\n   \nsecond line", 0)
    assert message_view(m) == ["first line", "second line"]


def test_steers_data_and_plan_trees_are_not_in_the_view():
    steer = Message(id="s", role="user", created_at=at(0), parts=(
        SteerPart(steer_id="steer_ctx_x", kind="context"), TextPart(text="Known: stuff")))
    plan = Message(id="p", role="assistant", created_at=at(0), parts=(
        ToolCallPart(tool_call_id="c1", name="plan_init", input={"title": "t", "mermaid": "A-->B"},
                     state="output-available", output={"approve": True}),
        DataPart(name="artifact", data={"x": 1})))
    assert message_view(steer) == []
    assert message_view(plan) == []
    assert chat_views(CHAT, [steer, plan]) == []


def test_graded_quiz_renders_question_refs_answers_and_verdicts():
    lines = message_view(quiz("m_4", "call_q", 3, ["correct", "dont-know"]))
    assert lines[0] == "Quiz question call_q/q1: What is the derivative of x^2?"
    assert "  correct answer: 2x" in lines
    assert "  learner: correct (answered: 2x)" in lines
    assert "  learner: said they don't know" in lines
    [view] = chat_views(CHAT, [quiz("m_4", "call_q", 3, ["correct", "dont-know"])])
    assert [(q.ref, q.question_index, q.verdict) for q in view.quizzes] == [
        ("call_q/q1", 0, "correct"), ("call_q/q2", 1, "dont-know")]


def test_a_quiz_output_outside_the_contract_builds_no_events():
    graded = quiz("m_4", "call_q", 3, ["correct", "miss"])
    part = graded.parts[0].model_copy(update={"output": {"verdicts": ["correct", "miss"]}})
    forged = graded.model_copy(update={"parts": (part,)})
    [view] = chat_views(CHAT, [forged])
    assert view.quizzes == ()
    assert view.lines.count("  learner: not answered yet") == 2


def test_answering_a_pending_quiz_uncovers_the_message_again():
    pending = chat_views(CHAT, session(graded=False))
    covered = {v.fingerprint for v in pending}
    assert uncovered(pending, covered) == []
    graded = chat_views(CHAT, session(graded=True))
    assert [v.message_id for v in uncovered(graded, covered)] == ["m_4"]
    assert pending[-1].quizzes == ()  # nothing graded yet, so no quiz events to build


def test_fingerprint_depends_on_message_id_and_every_line():
    assert fingerprint(["yes"], "m_1") != fingerprint(["yes"], "m_2")
    assert fingerprint(["a", "b"], "m") != fingerprint(["a b"], "m")
    assert fingerprint(["a", "b"], "m") == fingerprint(("a", "b"), "m")


def test_only_checkpointed_coverage_counts():
    from studyhall.core.contracts.graph import CoverageFingerprint

    rec = lambda run, fp: CoverageFingerprint(id=f"{CHAT}:{fp}:{run}", source_id=CHAT,
                                              message_id="m", fingerprint=fp, tokens=1,
                                              run_id=run, at=at(0))
    records = [rec("run_a", "f1"), rec("run_b", "f2")]
    assert covered_fingerprints(records, {"run_a"}) == {"f1"}


def test_token_estimate_is_deterministic_and_counts_lines():
    assert estimate_tokens(["abcd"]) == 2
    assert estimate_tokens(["abcd", "abcde"]) == 2 + 3
    views = chat_views(CHAT, session())
    assert uncovered_tokens(views, set()) == sum(v.tokens for v in views)


def test_batches_are_greedy_oldest_first_and_never_split_a_message():
    views = chat_views(CHAT, session())
    sizes = [v.tokens for v in views]
    budget = sizes[0] + sizes[1]
    batches = make_batches(views, budget)
    assert batches[0].message_ids == ("m_1", "m_2")
    assert [m for b in batches for m in b.message_ids] == ["m_1", "m_2", "m_3", "m_4"]
    assert all(b.tokens <= budget or len(b.views) == 1 for b in batches)
    # One view bigger than the budget still goes, alone.
    assert [b.message_ids for b in make_batches(views, 1)] == [(m,) for m in
                                                               ("m_1", "m_2", "m_3", "m_4")]


def test_plan_batches_skips_covered_views():
    views = chat_views(CHAT, session())
    covered = {views[0].fingerprint, views[2].fingerprint}
    [batch] = make_batches(uncovered(views, covered), 10_000)
    assert batch.message_ids == ("m_2", "m_4")
