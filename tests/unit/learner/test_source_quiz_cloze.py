"""Quiz me with no model: cloze questions from the passages read so far, their answers salient
terms, their distractors other passages' terms — readable and gradable as a ``quiz`` call."""

from __future__ import annotations

from studyhall.core.classroom.grading import grade_quiz
from studyhall.core.classroom.shuffle import choice_order
from studyhall.core.classroom.source_quiz_cloze import cloze_quiz

PASSAGES = [
    "Glycolysis splits one glucose into two pyruvate and nets two ATP in the cytosol.",
    "The Krebs cycle oxidises acetyl-CoA to carbon dioxide in the mitochondrial matrix.",
    "The electron transport chain pumps protons across the inner mitochondrial membrane.",
    "ATP synthase uses the proton gradient to make ATP, turning like a rotor.",
    "Photosynthesis captures light in chloroplasts to make glucose from carbon dioxide.",
]


def test_three_cloze_questions_from_the_passages_read():
    questions = cloze_quiz(PASSAGES[:3], PASSAGES, "smq_1")
    assert [q.passage for q in questions] == [0, 1, 2]
    for q in questions:
        answer = q.args["choices"][0]
        assert "_____" in q.args["prompt"] and answer.lower() not in q.args["prompt"].lower()
        assert answer.lower() in PASSAGES[q.passage].lower()
        assert len({c.lower() for c in q.args["choices"]}) == 4
        for wrong in q.args["choices"][1:]:  # a distractor is never in the question's passage
            assert wrong.lower() not in PASSAGES[q.passage].lower()


def test_the_quiz_is_deterministic_and_graded_like_a_session_quiz():
    a = cloze_quiz(PASSAGES[:3], PASSAGES, "smq_1")
    assert a == cloze_quiz(PASSAGES[:3], PASSAGES, "smq_1")
    args = {"questions": [q.args for q in a]}
    right = [[choice_order("smq_1", i, 4).index(0)] for i in range(3)]
    graded = grade_quiz("smq_1", args, {"choices": right})
    assert graded.verdicts == ["correct", "correct", "correct"]


def test_too_little_text_makes_no_question():
    assert cloze_quiz(["Hi."], ["Hi."], "smq_2") == []
