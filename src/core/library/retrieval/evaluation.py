"""The retrieval eval: questions with gold links in, Recall@1 / MRR / top-3 / coverage accuracy /
false citations out. Pure: the caller runs retrieval and hands in what it returned.

A FILE row is ``{"question", "gold": [path or path#anchor, ...], "answerable": bool}``. A ranked
chunk hits a gold link when the paths are equal and the anchors agree: a bare gold path accepts
any chunk of that file; ``#t=754`` accepts the chunk whose time window holds second 754;
``#page=12`` a chunk of page 12; a heading slug the chunk under that heading.
Ranking metrics are over answerable questions; false citations over unanswerable ones; false
absences ("not in your material" said of an answerable question) over answerable ones.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass

from studyhall.core.contracts.search import Chunk
from studyhall.core.library.retrieval.match_cases import CITING


@dataclass(frozen=True)
class EvalQuestion:
    question: str
    gold: tuple[str, ...]
    answerable: bool


@dataclass(frozen=True)
class EvalOutcome:
    question: EvalQuestion
    case: str
    ranked: tuple[Chunk, ...]  # distinct links, best first
    unconfirmed: bool = False  # NO_MATCH near the question: "can't tell without a model"

    @property
    def rank(self) -> int | None:
        """1-based rank of the first gold hit, None if no ranked chunk hits."""
        for n, chunk in enumerate(self.ranked, start=1):
            if any(hits(chunk, g) for g in self.question.gold):
                return n
        return None

    @property
    def cites(self) -> bool:
        return self.case in CITING

    @property
    def says_absent(self) -> bool:
        """Told the learner "not in your material" (NO_MATCH, far from every passage)."""
        return self.case == "NO_MATCH" and not self.unconfirmed


def parse_questions(text: str) -> list[EvalQuestion]:
    """Parse the JSONL FILE; a bad line raises ``ValueError`` naming the line."""
    out = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            question = row["question"]
            gold = row.get("gold", [])
            answerable = row.get("answerable", bool(gold))
            if not isinstance(question, str) or not question.strip():
                raise ValueError("question must be a non-empty string")
            if not isinstance(gold, list) or not all(isinstance(g, str) for g in gold):
                raise ValueError("gold must be a list of paths")
            if not isinstance(answerable, bool):
                raise TypeError("answerable must be true or false")  # reported as ValueError
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as e:
            raise ValueError(f"line {n}: {e}") from e
        out.append(EvalQuestion(question.strip(), tuple(gold), answerable))
    return out


def hits(chunk: Chunk, gold: str) -> bool:
    path, _, anchor = gold.partition("#")
    if chunk.path != path:
        return False
    if not anchor:
        return True
    if anchor.startswith("t="):
        try:
            t = float(anchor[2:])
        except ValueError:
            return chunk.anchor == anchor
        if chunk.start is None:
            return False
        # Anchors are whole seconds (t=84 for a cue at 84.3 s), so compare on whole seconds.
        start = math.floor(chunk.start)
        end = chunk.end if chunk.end is not None else chunk.start
        return start <= t <= max(end, start + 1.0)
    if anchor.startswith("page="):
        return chunk.anchor == anchor or str(chunk.page) == anchor[5:]
    return chunk.anchor == anchor or chunk.anchor == "" and chunk.heading is not None and (
        chunk.heading.strip().lower() == anchor.replace("-", " "))


@dataclass(frozen=True)
class Metrics:
    questions: int
    answerable: int
    recall_at_1: float
    top_3: float
    mrr: float
    coverage_accuracy: float
    false_citations: int
    unanswerable: int
    # Answerable questions told "not in your material": the no-model claim that must not lie.
    false_absences: int = 0


def metrics(outcomes: Sequence[EvalOutcome]) -> Metrics:
    answerable = [o for o in outcomes if o.question.answerable]
    unanswerable = [o for o in outcomes if not o.question.answerable]
    ranks = [o.rank for o in answerable]
    n = len(answerable) or 1
    correct_case = sum(1 for o in outcomes if o.cites == o.question.answerable)
    return Metrics(
        questions=len(outcomes),
        answerable=len(answerable),
        recall_at_1=sum(1 for r in ranks if r == 1) / n,
        top_3=sum(1 for r in ranks if r is not None and r <= 3) / n,
        mrr=sum(1 / r for r in ranks if r is not None) / n,
        coverage_accuracy=correct_case / (len(outcomes) or 1),
        false_citations=sum(1 for o in unanswerable if o.cites),
        unanswerable=len(unanswerable),
        false_absences=sum(1 for o in answerable if o.says_absent),
    )


def distinct_links(chunks: Sequence[Chunk]) -> tuple[Chunk, ...]:
    seen: set[str] = set()
    out = []
    for c in chunks:
        if c.link not in seen:
            seen.add(c.link)
            out.append(c)
    return tuple(out)
