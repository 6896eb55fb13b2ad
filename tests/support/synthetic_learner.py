"""Synthetic learners with known knowledge, to measure the mastery estimator against the truth.

Each simulated concept starts known or not, may be learnt at each practice (quiz, review), and
produces evidence from *its own* outcome rates — deliberately not the estimator's parameters, so
the test measures a model that is wrong in its details, as any real one is. ``auc`` is the
probability that a concept known at the end scores higher than one not known (ties count half).

    .venv/bin/python -m tests.support.synthetic_learner     # prints the AUC
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from studyhall.core.library.learner.mastery import Signal, score

T0 = datetime(2025, 1, 1, 9, 0, tzinfo=UTC)

# P(outcome | known), P(outcome | not known) of the simulated learner.
QUIZ = {
    "known": {"correct": 0.85, "miss": 0.12, "dont-know": 0.03},
    "easy": {"correct": 0.35, "miss": 0.45, "dont-know": 0.20},
    "medium": {"correct": 0.20, "miss": 0.55, "dont-know": 0.25},
    "hard": {"correct": 0.08, "miss": 0.62, "dont-know": 0.30},
}
REVIEW = {
    True: {"again": 0.12, "hard": 0.25, "good": 0.45, "easy": 0.18},
    False: {"again": 0.55, "hard": 0.20, "good": 0.20, "easy": 0.05},
}
OBSERVATION = {
    True: {"solid": 0.50, "partial": 0.30, "confused": 0.15, "misconception": 0.05},
    False: {"solid": 0.15, "partial": 0.35, "confused": 0.30, "misconception": 0.20},
}
START_KNOWN = 0.4
LEARN = 0.12


def _draw(rng: random.Random, table: dict[str, float]) -> str:
    return rng.choices(list(table), weights=list(table.values()))[0]


def simulate(rng: random.Random, events: int) -> tuple[bool, list[Signal]]:
    """One concept: whether it is known after its evidence, and the evidence."""
    known = rng.random() < START_KNOWN
    signals: list[Signal] = []
    for i in range(events):
        at = T0 + timedelta(hours=i)
        kind = rng.choices(["quiz", "review", "observation"], weights=[0.5, 0.3, 0.2])[0]
        if kind == "quiz":
            difficulty = rng.choice(["", "easy", "medium", "hard"])
            table = QUIZ["known"] if known else QUIZ[difficulty or "medium"]
            signals.append(Signal(at, "quiz", _draw(rng, table), f"q{i}", difficulty))
        elif kind == "review":
            signals.append(Signal(at, "review", _draw(rng, REVIEW[known]), f"r{i}"))
        else:
            signals.append(Signal(at, "observation", _draw(rng, OBSERVATION[known]), f"o{i}"))
        if kind != "observation" and not known:
            known = rng.random() < LEARN
    return known, signals


def auc(pairs: list[tuple[bool, float]]) -> float:
    """Mann-Whitney: P(score of a known concept > score of an unknown one), ties half."""
    ranked = sorted(pairs, key=lambda p: p[1])
    known_total = sum(1 for k, _ in pairs if k)
    unknown_total = len(pairs) - known_total
    wins = 0.0
    below = 0  # unknown concepts with a lower score than the current group
    i = 0
    while i < len(ranked):
        j = i
        while j < len(ranked) and ranked[j][1] == ranked[i][1]:
            j += 1
        group = ranked[i:j]
        group_known = sum(1 for k, _ in group if k)
        wins += group_known * (below + 0.5 * (len(group) - group_known))
        below += len(group) - group_known
        i = j
    return wins / (known_total * unknown_total)


def measure(concepts: int = 4000, seed: int = 15, most_events: int = 10) -> float:
    rng = random.Random(seed)
    pairs: list[tuple[bool, float]] = []
    for _ in range(concepts):
        known, signals = simulate(rng, rng.randint(1, most_events))
        value = score(signals).value
        pairs.append((known, value if value is not None else 0.5))
    return auc(pairs)


if __name__ == "__main__":
    print(f"AUC of mastery vs truth over 4000 simulated concepts (1-10 events each): "
          f"{measure():.3f}")
