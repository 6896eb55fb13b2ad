"""Quiz me with no model: cloze questions from the passages read so far, their answers salient
terms, their distractors other passages' terms — readable and gradable as a ``quiz`` call."""

from __future__ import annotations

from studyhall.core.classroom.grading import grade_quiz
from studyhall.core.classroom.shuffle import choice_order
from studyhall.core.classroom.source_quiz_cloze import cloze_quiz
from studyhall.core.library.sources.notes.prose import plain_line

PASSAGES = [
    "Glycolysis splits one glucose into two pyruvate and nets two ATP in the cytosol.",
    "The Krebs cycle oxidises acetyl-CoA to carbon dioxide in the mitochondrial matrix.",
    "The electron transport chain pumps protons across the inner mitochondrial membrane.",
    "ATP synthase uses the proton gradient to make ATP, turning like a rotor.",
    "Photosynthesis captures light in chloroplasts to make glucose from carbon dioxide.",
]


def test_three_cloze_questions_from_the_passages_read():
    questions = cloze_quiz(PASSAGES[:3], PASSAGES, "smq_1", plain=plain_line)
    assert [q.passage for q in questions] == [0, 1, 2]
    for q in questions:
        answer = q.args["choices"][0]
        assert "_____" in q.args["prompt"] and answer.lower() not in q.args["prompt"].lower()
        assert answer.lower() in PASSAGES[q.passage].lower()
        assert len({c.lower() for c in q.args["choices"]}) == 4
        for wrong in q.args["choices"][1:]:  # a distractor is never in the question's passage
            assert wrong.lower() not in PASSAGES[q.passage].lower()


def test_the_quiz_is_deterministic_and_graded_like_a_session_quiz():
    a = cloze_quiz(PASSAGES[:3], PASSAGES, "smq_1", plain=plain_line)
    assert a == cloze_quiz(PASSAGES[:3], PASSAGES, "smq_1", plain=plain_line)
    args = {"questions": [q.args for q in a]}
    right = [[choice_order("smq_1", i, 4).index(0)] for i in range(3)]
    graded = grade_quiz("smq_1", args, {"choices": right})
    assert graded.verdicts == ["correct", "correct", "correct"]


def test_too_little_text_makes_no_question():
    assert cloze_quiz(["Hi."], ["Hi."], "smq_2", plain=plain_line) == []


NOTE = [  # a note's passages are its Markdown source (tests/support/shelf.py's Glycolysis)
    ("Glycolysis splits one glucose into two pyruvate and nets **two ATP**. See [[Krebs cycle]] "
     "for what happens to pyruvate next, and [[Krebs cycle#Where it happens|where the cycle "
     "runs]]."),
    ("- **Investment phase**: two ATP spent by hexokinase and phosphofructokinase.\n"
     "- Payoff phase: four ATP and two NADH made.\n\n![[glycolysis-diagram.png]]"),
    ("The net yield is `2 ATP + 2 NADH` per glucose. A quick check in Python:\n\n```python\n"
     "def net_atp(made: int = 4, spent: int = 2) -> int:\n    return made - spent\n```"),
    "> Under anaerobic conditions pyruvate is reduced to lactate to regenerate NAD+.",
    *PASSAGES[1:],
]


def test_questions_and_choices_from_markdown_passages_are_plain_text():
    questions = cloze_quiz(NOTE[:4], NOTE, "smq_3", plain=plain_line)
    assert len(questions) >= 3
    shown = [t for q in questions for t in (q.args["prompt"], q.args["explanation"],
                                             *q.args["choices"])]
    for mark in ("**", "[[", "]]", "![", "`", "def net_atp", "#Where", "glycolysis-diagram"):
        assert not any(mark in t for t in shown), (mark, shown)
    # Still answerable: the right choice is what the blank hides in the passage as read.
    for q in questions:
        sentence = q.args["explanation"].removeprefix("The passage says: “").removesuffix("”")
        blanked = q.args["prompt"].removeprefix("Fill in the blank: “").removesuffix("”")
        assert blanked.replace("_____", q.args["choices"][0], 1) == sentence
