"""Bayesian knowledge tracing (BKT): P(the learner knows a concept) after each piece of evidence.

Classic BKT (Corbett & Anderson, 1995) keeps one probability per concept, P(known), starts it at
a prior, updates it by Bayes' rule after each observed answer (with a *slip* rate — a knower gets
it wrong — and a *guess* rate — a non-knower gets it right) and then lets the learner learn with
probability P(learn) after each practice opportunity. We use it because it is the standard,
its four numbers are readable, it needs no training data (a single learner has too little to fit
anything), and every step is explainable: "quiz, wrong: 0.87 -> 0.42".

Our one extension: each kind of evidence has its own outcome probabilities given known / not
known (a graded quiz answer says more than a self-graded review, which says more than a model's
observation of a transcript), and a quiz question's difficulty shifts slip and guess (a hard
question is rarely guessed, more often slipped). "I don't know" is its own outcome and is
*stronger* evidence of not knowing than a wrong answer: a knower rarely says it (2 %), a
non-knower often does (30 %), while a wrong answer may be a slip. Forgetting is not modelled here
— that is FSRS's job (retrievability); mastery is whether the concept has been learnt.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

PRIOR = 0.5  # P(known) before any evidence: even odds — a concept in the graph has been met
LEARN = 0.1  # P(learn) after a practice opportunity (quiz answer, review, correction)
DONT_KNOW = (0.02, 0.30)  # P("I don't know" | known), P(... | not known), any difficulty


class Emission(NamedTuple):
    """How likely the observed outcome is if the concept is known / not known, and whether the
    event was practice (after which the learner may have learnt it)."""

    if_known: float
    if_unknown: float
    practice: bool


# Quiz questions: (slip, guess) per difficulty; unknown difficulty is "medium".
_SLIP_GUESS: dict[str, tuple[float, float]] = {
    "easy": (0.05, 0.30),
    "medium": (0.10, 0.15),
    "hard": (0.20, 0.05),
}
# Self-graded recall in a review: P(grade | known), P(grade | not known). Each column sums to 1.
_GRADES: dict[str, tuple[float, float]] = {
    "again": (0.10, 0.60),
    "hard": (0.25, 0.17),
    "good": (0.45, 0.18),
    "easy": (0.20, 0.05),
}
# A model's observation of the transcript (the extractor's, or the teacher's through a validated
# tool): the closed understanding scale. Each column sums to 1; "corrected" (the teacher saw a
# misconception replaced by the right idea) is scored on its own.
_LEVELS: dict[str, tuple[float, float]] = {
    "solid": (0.60, 0.20),
    "partial": (0.27, 0.33),
    "confused": (0.10, 0.27),
    "misconception": (0.03, 0.20),
    "corrected": (0.50, 0.25),
}
# What the learner said of themselves: their word, not a measurement — it counts like a model's
# reading of a transcript ("know" as a solid observation: the odds of knowing ×3; "don't know"
# ×0.2), never like a graded answer. "wrong" says what the app recorded is not what they meant:
# it moves nothing itself; ``mastery.score`` sets the model's readings before it aside.
ASSERTED: dict[str, tuple[float, float]] = {
    "know": (0.60, 0.20),
    "dont_know": (0.10, 0.50),
}
_NEUTRAL = Emission(1.0, 1.0, False)  # an outcome we do not know how to read changes nothing


def emission(kind: str, label: str, difficulty: str = "") -> Emission:
    """The outcome probabilities of one event: ``kind`` quiz / review / observation / teacher /
    learner, ``label`` its verdict, grade or level (learner: what they asserted)."""
    if kind == "quiz":
        if label == "dont-know":
            return Emission(*DONT_KNOW, True)
        slip, guess = _SLIP_GUESS.get(difficulty or "medium", _SLIP_GUESS["medium"])
        if label == "correct":
            return Emission(1.0 - slip - DONT_KNOW[0], guess, True)
        if label == "miss":
            return Emission(slip, 1.0 - guess - DONT_KNOW[1], True)
        return _NEUTRAL
    if kind == "review":
        pair = _GRADES.get(label)
        return Emission(*pair, True) if pair else _NEUTRAL
    if kind == "learner":
        said = ASSERTED.get(label)
        return Emission(*said, False) if said else _NEUTRAL
    pair = _LEVELS.get(label)
    if pair is None:
        return _NEUTRAL
    # A correction happens while being taught: practice. Observing a transcript is not.
    return Emission(*pair, label == "corrected")


def odds_weight(label: str) -> float:
    """How much an assertion multiplies the odds of knowing (1: it moves nothing)."""
    said = ASSERTED.get(label)
    return round(said[0] / said[1], 2) if said else 1.0


def step(known: float, evidence: Emission) -> float:
    """P(known) after one event: Bayes' rule on its outcome, then learning if it was practice."""
    hit = known * evidence.if_known
    total = hit + (1.0 - known) * evidence.if_unknown
    posterior = hit / total if total > 0 else known
    if evidence.practice:
        posterior += (1.0 - posterior) * LEARN
    return posterior


def trace(events: Iterable[Emission], prior: float = PRIOR) -> tuple[float, ...]:
    """P(known) after each event, oldest first (the last one is the mastery)."""
    known = prior
    out: list[float] = []
    for evidence in events:
        known = step(known, evidence)
        out.append(known)
    return tuple(out)
