"""Mastery: a per-concept score with the explanation of where it came from, the derived
understanding state, a topic's mastery from its parts, and prerequisite gating over ``follows``
edges.

The score is P(known) from Bayesian knowledge tracing over the concept's evidence, oldest first
(``tracing.py`` says which model and why): graded quiz answers, the extractor's observations of
a session, review grades, the teacher's validated observations and what the learner said of
themselves (their word, weighed like an observation; "this is wrong" sets the model's readings
before it aside — session and teacher observations — while their answers and grades stay). Thresholds follow seed 000
§7: a concept is solid at ≥ 0.8; no hard questions on a concept until each prerequisite is
≥ 0.7. Nothing here is stored — it is derived from the ledgers at every read.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, NamedTuple

from studyhall.core.library.learner.tracing import PRIOR, Emission, emission, odds_weight, trace

SOLID_AT = 0.8
GATE_BELOW = 0.7

State = Literal["solid", "shaky", "not-tried", "corrected-misconception"]
SignalKind = Literal["quiz", "observation", "review", "teacher", "learner"]

# Evidence that the learner has it right (a later one after a misconception corrects it).
_POSITIVE = frozenset({"correct", "solid", "corrected", "hard", "good", "easy"})
_SAID = {"miss": "wrong", "dont-know": "I don't know", "again": "forgot (again)"}
_ASSERTED = {"know": "“I know this”", "dont_know": "“I don't know this”",
             "wrong": "“this is wrong”"}
_READINGS = frozenset({"observation", "teacher"})  # a model's reading, not the learner's act


class Signal(NamedTuple):
    """One piece of evidence about a concept: a graded answer, an observation or a review grade.

    A tuple so ordering is plain tuple order (time first) and building 100k of them is cheap.
    """

    at: datetime
    kind: SignalKind
    label: str  # the verdict, the understanding level or the grade
    ref: str  # the quiz ref or the record id, for the explanation
    difficulty: str = ""  # a quiz question's: easy / medium / hard ("" when not given)
    note: str = ""  # what the teacher saw (teacher observations)

    def describe(self) -> str:
        """The event in a few words: "quiz c/q2 on Dec 1: wrong", "review on Dec 3: good"."""
        said = _SAID.get(self.label, self.label)
        day = f"on {self.at:%b} {self.at.day}"
        if self.kind == "quiz":
            hard = f", a {self.difficulty} question" if self.difficulty else ""
            return f"quiz {self.ref} {day}{hard}: {said}"
        if self.kind == "observation":
            return f"session observation {day}: {said}"
        if self.kind == "teacher":
            return f"teacher observation {day}: {said}" + (f" — {self.note}" if self.note else "")
        if self.kind == "learner":
            weight = odds_weight(self.label)
            effect = (f"weight ×{weight:g}" if weight != 1.0
                      else "earlier session readings set aside")
            return (f"you said {_ASSERTED.get(self.label, self.label)} {day} ({effect})"
                    + (f" — {self.note}" if self.note else ""))
        return f"review {day}: {said}"


class Step(NamedTuple):
    """One event and what it changed (``set_aside``: the learner said it was wrong)."""

    signal: Signal
    before: float
    after: float
    set_aside: bool = False

    def describe(self) -> str:
        said = self.signal.describe()
        return f"{said} (set aside: you said this was wrong)" if self.set_aside else said


class Score(NamedTuple):
    value: float | None  # None: never tried — absence is not zero
    state: State
    signals: tuple[Signal, ...] = ()  # oldest first
    trace: tuple[float, ...] = ()  # P(known) after each signal (unrounded), oldest first
    set_aside: frozenset[int] = frozenset()  # signals (by index) a later "this is wrong" voids

    def steps(self) -> Iterator[Step]:
        """Every event with the score before and after it, newest first."""
        for index in range(len(self.signals) - 1, -1, -1):
            before = self.trace[index - 1] if index else PRIOR
            yield Step(self.signals[index], before, self.trace[index], index in self.set_aside)

    @property
    def explanation(self) -> tuple[str, ...]:
        """Where the score came from, newest signal first (built only when asked for)."""
        if self.value is None:
            return ("no quiz answers, observations or reviews yet",)
        if self.state == "corrected-misconception":
            verdict = "a misconception was corrected by later evidence"
        elif self.state == "solid":
            verdict = f"≥ {SOLID_AT:.1f} is solid"
        else:
            verdict = f"< {SOLID_AT:.1f} is shaky"
        lines = [f"score {self.value:.2f}: {verdict}"]
        for s in self.steps():
            lines.append(f"{s.describe()} → {s.after:.2f} (was {s.before:.2f})")
        return tuple(lines)


_NOT_TRIED = Score(None, "not-tried")


def score(signals: Iterable[Signal]) -> Score:
    ordered = sorted(signals)
    if not ordered:
        return _NOT_TRIED
    voided = _set_aside(ordered)
    path = trace(_NOTHING if i in voided else emission(s.kind, s.label, s.difficulty)
                 for i, s in enumerate(ordered))
    value = path[-1]
    last_wrong = max((i for i, s in enumerate(ordered)
                      if s.label == "misconception" and i not in voided), default=-1)
    if 0 <= last_wrong < len(ordered) - 1 and ordered[-1].label in _POSITIVE:
        state: State = "corrected-misconception"
    elif value >= SOLID_AT:
        state = "solid"
    else:
        state = "shaky"
    return Score(round(value, 4), state, tuple(ordered), path, voided)


_NOTHING = Emission(1.0, 1.0, False)


def _set_aside(ordered: Sequence[Signal]) -> frozenset[int]:
    """The model's readings (session and teacher observations) before the learner's latest
    "this is wrong": they count for nothing. Answers and grades are the learner's own acts."""
    said = max((i for i, s in enumerate(ordered) if s.kind == "learner" and s.label == "wrong"),
               default=-1)
    if said < 0:
        return frozenset()
    return frozenset(i for i in range(said) if ordered[i].kind in _READINGS)


class TopicScore(NamedTuple):
    value: float | None
    state: State
    parts: int
    tried: int


def topic_score(parts: Sequence[Score]) -> TopicScore:
    """A topic's mastery from its parts: the mean of their scores, a part not yet tried counting
    as the prior (unknown is not zero, nor known). A topic is solid only when every part is —
    one solid part cannot hide an untried one — and shows a corrected misconception if a part
    does."""
    tried = [p for p in parts if p.value is not None]
    if not tried:
        return TopicScore(None, "not-tried", len(parts), 0)
    value = sum(p.value if p.value is not None else PRIOR for p in parts) / len(parts)
    state: State
    if any(p.state == "corrected-misconception" for p in parts):
        state = "corrected-misconception"
    elif len(tried) == len(parts) and all(p.state == "solid" for p in parts):
        state = "solid"
    else:
        state = "shaky"
    return TopicScore(round(value, 4), state, len(parts), len(tried))


@dataclass(frozen=True)
class Gate:
    """Whether a concept is ready for hard questions, and which prerequisites block it."""

    ready: bool
    blocking: tuple[tuple[str, float | None], ...]  # (prerequisite id, its score)


def prerequisites(follows: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    """``follows`` edges run prerequisite -> dependent; map each dependent to its
    prerequisites."""
    prereqs: dict[str, list[str]] = {}
    for source, target in follows:
        prereqs.setdefault(target, []).append(source)
    return prereqs


def gate(node_id: str, prereqs: Mapping[str, Sequence[str]],
         scores: Mapping[str, float | None]) -> Gate:
    blocking = tuple(
        (p, scores.get(p)) for p in sorted(set(prereqs.get(node_id, ())))
        if (scores.get(p) is None or (scores.get(p) or 0.0) < GATE_BELOW)
    )
    return Gate(ready=not blocking, blocking=blocking)
