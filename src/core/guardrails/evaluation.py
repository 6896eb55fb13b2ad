"""Scoring the guardrails against labelled sets: per-type precision and recall of the PII
detector (a found span counts when its type matches a gold span it overlaps, each gold span
at most once; ``exact`` also requires the same boundaries), and the intent router's accuracy."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from studyhall.core.guardrails.findings import ENTITY_TYPES, Candidate


@dataclass(frozen=True)
class Gold:
    type: str
    start: int
    end: int
    group: str | None = None


@dataclass(frozen=True)
class PiiCase:
    id: str
    text: str
    gold: tuple[Gold, ...]


@dataclass
class TypeScore:
    gold: int = 0
    found: int = 0
    hits: int = 0  # found spans that match a gold span (overlap, same type)
    exact: int = 0  # ... with the same boundaries
    misses: list[str] = field(default_factory=list)  # "id: text" of missed gold spans
    false: list[str] = field(default_factory=list)  # "id: text" of spans that match nothing

    @property
    def recall(self) -> float:
        return self.hits / self.gold if self.gold else 1.0

    @property
    def precision(self) -> float:
        return self.hits / self.found if self.found else 1.0

    @property
    def exact_recall(self) -> float:
        return self.exact / self.gold if self.gold else 1.0


def score_pii(cases: Iterable[PiiCase],
              detect: Callable[[str], Sequence[Candidate]]) -> dict[str, TypeScore]:
    """Per type, plus ``PERSON/<group>`` rows for names of each group (recall only)."""
    scores: dict[str, TypeScore] = {t: TypeScore() for t in ENTITY_TYPES}
    for case in cases:
        found = list(detect(case.text))
        used: set[int] = set()
        for g in case.gold:
            row = scores.setdefault(g.type, TypeScore())
            group = scores.setdefault(f"{g.type}/{g.group}", TypeScore()) if g.group else None
            row.gold += 1
            if group is not None:
                group.gold += 1
            match = next((k for k, f in enumerate(found) if k not in used and f.type == g.type
                          and f.start < g.end and g.start < f.end), None)
            if match is None:
                row.misses.append(f"{case.id}: {case.text[g.start:g.end]!r}")
                continue
            used.add(match)
            exact = found[match].start == g.start and found[match].end == g.end
            for target in (row, group):
                if target is not None:
                    target.hits += 1
                    target.exact += exact
        for k, f in enumerate(found):
            scores.setdefault(f.type, TypeScore()).found += 1
            if k not in used:
                scores[f.type].false.append(f"{case.id}: {case.text[f.start:f.end]!r}")
    for name, row in scores.items():
        if "/" in name:
            row.found = row.hits  # precision is not defined per name group
    return scores


@dataclass(frozen=True)
class IntentCase:
    text: str
    intent: str


@dataclass(frozen=True)
class IntentScore:
    total: int
    correct: int
    per_intent: dict[str, tuple[int, int]]  # intent -> (correct, total)
    wrong: tuple[tuple[str, str, str], ...]  # (text, expected, got)

    @property
    def accuracy(self) -> float:
        return self.correct / self.total if self.total else 1.0


def score_intents(cases: Iterable[IntentCase], route: Callable[[str], str]) -> IntentScore:
    per: dict[str, list[int]] = {}
    wrong: list[tuple[str, str, str]] = []
    for case in cases:
        got = route(case.text)
        tally = per.setdefault(case.intent, [0, 0])
        tally[1] += 1
        if got == case.intent:
            tally[0] += 1
        else:
            wrong.append((case.text, case.intent, got))
    total = sum(t for _, t in per.values())
    correct = sum(c for c, _ in per.values())
    return IntentScore(total, correct, {k: (c, t) for k, (c, t) in per.items()}, tuple(wrong))
