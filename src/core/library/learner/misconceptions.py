"""Misconceptions as patterns: the same wrong answer, again and again, on the same topic —
derived from the evidence at every read, like mastery (nothing is stored).

The rule (docs/learner.md, "Misconceptions"):
- A *wrong choice* is a graded wrong answer that picked something: the distractor(s) chosen
  (or the wrong text typed) and the right answer(s). "I don't know" picks nothing.
- Two wrong choices on the same topic show *the same confusion* when they picked the same text
  (case and spacing aside), or swapped the same pair (picked A where B was right, then B where
  A was). Confusions chain: A~B and B~C are one pattern.
- A pattern *forms* once ``AT_LEAST`` (2) such answers fall in the last ``WINDOW`` (60 days):
  "You often confuse “A” and “B”: 3 times" — a pair is named only when it came back (A picked
  where B was right, or B where A was, in ``AT_LEAST`` answers); the same text picked for
  different questions is "You often answer “A” where it does not fit: 2 times".
- It is *retired* once later evidence is solid: after its last wrong choice the topic has a
  right answer, a passing review (hard, good, easy) or the teacher saw it corrected, and the
  topic's mastery is solid (≥ 0.8) now. The learner's own "I know this" raises the score but
  does not by itself retire a pattern their answers show. A new wrong choice brings it back.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from studyhall.core.library.learner.mastery import SOLID_AT, Score

WINDOW = timedelta(days=60)
AT_LEAST = 2
TEXT_CHARS = 80  # an answer's text, clipped, in the line
# Measured evidence of having it right: a graded answer, a passing review, a correction seen.
_RIGHT = {"quiz": {"correct"}, "review": {"hard", "good", "easy"}, "teacher": {"corrected"}}


@dataclass(frozen=True)
class WrongChoice:
    """One graded wrong answer on a node, with what was picked and what was right (texts as
    the question showed them)."""

    node_id: str
    at: datetime
    chosen: tuple[str, ...]
    right: tuple[str, ...]
    ref: str  # the quiz ref ("<tool call>/q2", "<quiz id>/q1"), for the record


@dataclass(frozen=True)
class Misconception:
    node_id: str
    chosen: str  # the text picked most often
    right: str | None  # what it was most often picked for
    times: int
    first_at: datetime
    last_at: datetime
    refs: tuple[str, ...]

    @property
    def line(self) -> str:
        picked = _quote(self.chosen)
        if self.right is None:
            return f"You often answer {picked} where it does not fit: {self.times} times"
        return f"You often confuse {picked} and {_quote(self.right)}: {self.times} times"

    def json(self) -> dict[str, Any]:
        return {"node_id": self.node_id, "chosen": self.chosen, "right": self.right,
                "times": self.times, "first_at": self.first_at.isoformat(),
                "last_at": self.last_at.isoformat(), "line": self.line}


@lru_cache(maxsize=4096)  # the same few answer texts come back across a long history
def key(text: str) -> str:
    """A text as compared: case, spacing and a final full stop aside."""
    return " ".join(text.split()).casefold().rstrip(".")


def misconceptions(wrong: Iterable[WrongChoice], score_of: Callable[[str], Score],
                   now: datetime) -> list[Misconception]:
    """Every live pattern, the latest first. ``score_of(node)``: the node's mastery now (its
    signals say what came after the pattern)."""
    since = now - WINDOW
    by_node: dict[str, list[WrongChoice]] = {}
    for w in wrong:
        if w.at >= since and any(key(c) for c in w.chosen):
            by_node.setdefault(w.node_id, []).append(w)
    out: list[Misconception] = []
    for node_id, answers in by_node.items():
        score: Score | None = None
        for group in _confusions(sorted(answers, key=lambda w: (w.at, w.ref))):
            if len(group) < AT_LEAST:
                continue
            score = score or score_of(node_id)
            if _retired(score, group[-1].at):
                continue
            out.append(_pattern(node_id, group))
    return sorted(out, key=lambda m: (m.last_at, m.node_id), reverse=True)


def _confusions(answers: Sequence[WrongChoice]) -> list[list[WrongChoice]]:
    """Answers grouped by shared confusion (a picked text, or a swapped pair), oldest first."""
    parent = list(range(len(answers)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    seen: dict[tuple[str, ...], int] = {}
    for i, w in enumerate(answers):
        rights = {key(r) for r in w.right} - {""}
        for chosen in {key(c) for c in w.chosen} - {""}:
            marks = [("picked", chosen)] + [("pair", *sorted((chosen, r))) for r in rights]
            for mark in marks:
                j = seen.setdefault(mark, i)
                parent[root(i)] = root(j)
    groups: dict[int, list[WrongChoice]] = {}
    for i, w in enumerate(answers):
        groups.setdefault(root(i), []).append(w)
    return list(groups.values())


def _retired(score: Score, last_wrong: datetime) -> bool:
    if score.value is None or score.value < SOLID_AT:
        return False
    return any(s.at > last_wrong and s.label in _RIGHT.get(s.kind, ()) for s in score.signals)


def _pattern(node_id: str, group: Sequence[WrongChoice]) -> Misconception:
    shown: dict[str, Counter[str]] = {}  # key -> how it was written, and how often
    picked: Counter[str] = Counter()
    meant: Counter[str] = Counter()
    for w in group:
        for texts, tally in ((w.chosen, picked), (w.right, meant)):
            for text in texts:
                if key(text):
                    tally[key(text)] += 1
                    shown.setdefault(key(text), Counter())[" ".join(text.split())] += 1
    chosen = max(picked, key=lambda k: (picked[k], k))
    # The pair named is one the answers came back to; "made" picked once where "pyruvate" was
    # right and once where "phosphate" was is no confusion of "made" with either.
    pairs: Counter[str] = Counter()  # the other text of each pair with ``chosen``, per answer
    for w in group:
        pairs.update(_partners(w, chosen))
    paired = [k for k, n in pairs.items() if n >= AT_LEAST]
    right = max(paired, key=lambda k: (pairs[k], meant[k], k)) if paired else None
    return Misconception(node_id, _written(shown[chosen]),
                         None if right is None else _written(shown[right]), len(group),
                         group[0].at, group[-1].at, tuple(w.ref for w in group))


def _partners(w: WrongChoice, text: str) -> set[str]:
    """The texts ``w`` paired with ``text``: the right answers it was picked for, or the
    picks made where it was right."""
    chosen, right = {key(c) for c in w.chosen} - {""}, {key(r) for r in w.right} - {""}
    return (right if text in chosen else chosen if text in right else set()) - {text}


def _written(forms: Counter[str]) -> str:
    """The most common way the text was written (the first seen on a tie), clipped."""
    return _clip(forms.most_common(1)[0][0])


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= TEXT_CHARS else text[:TEXT_CHARS].rsplit(" ", 1)[0] + "…"


def _quote(text: str) -> str:
    return f"“{text}”"
