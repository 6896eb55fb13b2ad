"""Mastery: a per-concept score with the explanation of where it came from, the derived
understanding state, and prerequisite gating over ``follows`` edges.

Thresholds follow seed 000 §7: a concept is solid at ≥ 0.8; no hard questions on a concept
until each prerequisite is ≥ 0.7. The score is a recency-weighted mean: graded quiz answers
weigh more than the extractor's observations (code-checked beats model-judged), and each
older signal counts 0.7× the one after it, so recovering from early mistakes is visible.
Nothing here is stored — it is derived from the ledgers at every read.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, NamedTuple

SOLID_AT = 0.8
GATE_BELOW = 0.7
DECAY = 0.7
QUIZ_WEIGHT = 1.0
OBSERVATION_WEIGHT = 0.5

State = Literal["solid", "shaky", "not-tried", "corrected-misconception"]

_VALUES: dict[str, float] = {
    # graded quiz verdicts
    "correct": 1.0,
    "miss": 0.0,
    "dont-know": 0.0,
    # extractor observations (the closed scale)
    "solid": 1.0,
    "partial": 0.5,
    "confused": 0.2,
    "misconception": 0.0,
}
_POSITIVE = {"correct", "solid"}


class Signal(NamedTuple):
    """One piece of evidence about a concept: a graded answer or an observation.

    A tuple so ordering is plain tuple order (time first) and building 100k of them is cheap.
    """

    at: datetime
    kind: Literal["quiz", "observation"]
    label: str  # the verdict or the understanding level
    ref: str  # the quiz ref or the record id, for the explanation


class Score(NamedTuple):
    value: float | None  # None: never tried — absence is not zero
    state: State
    signals: tuple[Signal, ...] = ()  # oldest first

    @property
    def explanation(self) -> tuple[str, ...]:
        """Where the score came from, newest signal first (built only when asked for)."""
        if self.value is None:
            return ("no quiz answers or observations yet",)
        if self.state == "corrected-misconception":
            verdict = "a misconception was corrected by later evidence"
        elif self.state == "solid":
            verdict = f"≥ {SOLID_AT:.1f} is solid"
        else:
            verdict = f"< {SOLID_AT:.1f} is shaky"
        lines = [f"score {self.value:.2f}: {verdict}"]
        for age, signal in enumerate(reversed(self.signals)):
            lines.append(f"{signal.kind} {signal.ref} on {signal.at:%Y-%m-%d}: {signal.label} "
                         f"(value {_VALUES.get(signal.label, 0.0):.1f}, "
                         f"weight {_weight(signal, age):.2f})")
        return tuple(lines)


def _weight(signal: Signal, age: int) -> float:
    return (QUIZ_WEIGHT if signal.kind == "quiz" else OBSERVATION_WEIGHT) * DECAY**age


_NOT_TRIED = Score(None, "not-tried")


def score(signals: Iterable[Signal]) -> Score:
    ordered = sorted(signals)
    if not ordered:
        return _NOT_TRIED
    total = weight_sum = 0.0
    last_wrong = -1
    decay = 1.0
    for index in range(len(ordered) - 1, -1, -1):  # newest first: weights decay with age
        signal = ordered[index]
        weight = (QUIZ_WEIGHT if signal.kind == "quiz" else OBSERVATION_WEIGHT) * decay
        total += weight * _VALUES.get(signal.label, 0.0)
        weight_sum += weight
        decay *= DECAY
        if last_wrong < 0 and signal.label == "misconception":
            last_wrong = index
    value = total / weight_sum
    if 0 <= last_wrong < len(ordered) - 1 and ordered[-1].label in _POSITIVE:
        state: State = "corrected-misconception"
    elif value >= SOLID_AT:
        state = "solid"
    else:
        state = "shaky"
    return Score(round(value, 4), state, tuple(ordered))


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
