"""Reading the learner out of transcripts: quiz difficulty and targets, this session's graded
answers, the learner's own words (what an observation may quote), and past sessions' search."""

from __future__ import annotations

from studyhall.core.classroom.history_search import search_history
from studyhall.core.classroom.learner_words import learner_words, said_by_learner
from studyhall.core.classroom.questions import validate_quiz
from studyhall.core.classroom.quiz_answers import session_answers
from studyhall.core.classroom.quiz_read import read_quiz
from studyhall.core.contracts.chat import Message, SteerPart, TextPart, ToolCallPart
from studyhall.core.contracts.quiz import QuestionResult, QuizOutput

from tests.support.records import at, chat, message

Q = {"prompt": "2+2?", "choices": ["4", "5"], "correct": [0]}


def test_a_question_may_say_how_hard_it_is_and_a_quiz_which_node_it_checks():
    questions, errors = read_quiz({"questions": [{**Q, "difficulty": "hard"}, Q],
                                   "node_id": "n_1"})
    assert errors == [] and [q.difficulty for q in questions] == ["hard", None]
    assert validate_quiz({"questions": [{**Q, "difficulty": "tough"}]}) == [
        "questions[0].difficulty must be one of easy, medium, hard, not 'tough'"]
    assert validate_quiz({"questions": [Q], "node_id": " "}) == [
        "node_id must be the id of a knowledge-graph node (a non-empty string)"]


def _graded_quiz(call: str, verdicts: list[str], args: dict, minute: int = 1) -> Message:
    results = tuple(QuestionResult(index=i, kind="single", prompt="?", verdict=v)
                    for i, v in enumerate(verdicts))
    output = QuizOutput(correct=verdicts.count("correct"), total=len(verdicts), results=results,
                        answered_at=at(minute + 1).isoformat()).model_dump(mode="json")
    part = ToolCallPart(tool_call_id=call, name="quiz", input=args, state="output-available",
                        output=output)
    return Message(id=f"m_{call}", role="assistant", parts=(part,), created_at=at(minute),
                   agent="teacher")


def test_session_answers_carry_ref_verdict_difficulty_and_target():
    graded = _graded_quiz("c1", ["correct", "miss"], {
        "questions": [{**Q, "difficulty": "easy"}, Q], "plan_node": "A", "node_id": "n_1"})
    pending = ToolCallPart(tool_call_id="c2", name="quiz", input={"questions": [Q]},
                           state="input-available")
    waiting = Message(id="m_c2", role="assistant", parts=(pending,), created_at=at(5))
    answers = session_answers([graded, waiting])
    assert [(a.ref, a.verdict, a.difficulty, a.plan_node, a.node_id) for a in answers] == [
        ("c1/q1", "correct", "easy", "A", "n_1"), ("c1/q2", "miss", None, "A", "n_1")]
    assert answers[0].at == at(2)  # when it was answered


def test_the_learners_words_are_their_messages_and_typed_answers_only():
    steer = Message(id="s", role="user", created_at=at(0), parts=(
        TextPart(text="Research says: trees have cycles"),
        SteerPart(steer_id="steer_x", kind="job")))
    typed = ToolCallPart(tool_call_id="a1", name="ask_user_question",
                         input={"question": "Why?", "options": ["x", "y"],
                                "allow_free_text": True},
                         state="output-available",
                         output={"status": "answered", "text": "because   no loops",
                                 "option": None, "dont_know": False})
    picked = typed.model_copy(update={"tool_call_id": "a2", "output": {
        "status": "answered", "text": "y", "option": 1, "dont_know": False}})
    tutor = Message(id="t", role="assistant", created_at=at(1),
                    parts=(TextPart(text="A tree has no cycles."), typed, picked))
    transcript = [message("u", "I think a tree\nhas no cycles"), steer, tutor]
    assert list(learner_words(transcript)) == ["I think a tree\nhas no cycles",
                                               "because   no loops"]
    assert said_by_learner("a tree has no cycles", transcript)  # across a line break
    assert said_by_learner("because no loops", transcript)
    assert not said_by_learner("trees have cycles", transcript)  # a steer's text
    assert not said_by_learner("A tree has no cycles.", transcript)  # the tutor's
    assert not said_by_learner("   ", transcript)


def test_history_search_finds_past_messages_by_phrase_or_most_words_newest_first():
    old = chat("c_old", topic="heaps", minute=0, messages=(
        message("o1", "What is a binary heap?", minute=0),
        message("o2", "A binary heap keeps the smallest item on top.", role="assistant",
                minute=1)))
    new = chat("c_new", topic="sorting", minute=100, messages=(
        message("n1", "heaps again: why is heapsort not stable?", minute=100),
        Message(id="n2", role="user", created_at=at(101), parts=(
            TextPart(text="binary heap research result"),
            SteerPart(steer_id="steer_j", kind="job")))))
    current = chat("c_now", messages=(message("x", "binary heap", minute=200),))
    hits = search_history([old, new, current], "binary heap", skip_chat="c_now")
    assert [(h.chat_id, h.message_id, h.role, h.score) for h in hits] == [
        ("c_old", "o2", "tutor", 1.0), ("c_old", "o1", "learner", 1.0),
        ("c_new", "n1", "learner", 0.45)]  # half the words ("heap…"): a weaker match, last
    assert hits[0].session == "heaps" and "smallest item" in hits[0].excerpt
    words = search_history([old, new], "Heaps and stability", limit=1)
    assert [h.message_id for h in words] == ["n1"]  # "heaps" + "stab…": most of the words
    assert search_history([old, new], "graph colouring") == []
