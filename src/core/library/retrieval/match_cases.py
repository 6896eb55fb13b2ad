"""Coverage cases: does the learner's material answer this question, and which passages may be
cited? ``MATCH`` / ``RELATED`` / ``NO_MATCH`` for a question over everything, ``IN_SOURCE`` /
``IN_MOMENT`` for one asked from inside a source or at a moment.

With a grading reranker (a model) the case follows its grades (answers / partial / related / no).
Without one it follows calibrated score thresholds — set so that questions the material does
not answer get no citation: a false citation is worse than a missed one (see ``CALIBRATION``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from studyhall.core.contracts.search import Chunk, RerankGrade

Case = Literal["MATCH", "RELATED", "NO_MATCH", "IN_SOURCE", "IN_MOMENT"]
CITING: frozenset[str] = frozenset({"MATCH", "RELATED", "IN_SOURCE", "IN_MOMENT"})


@dataclass(frozen=True)
class Calibration:
    """Score thresholds on the best hit, for deciding a case without a model.

    ``late`` is the late-interaction score (mean over query tokens of the best-matching passage
    token, cosine, in [0, 1]); ``dense`` the cosine of question and passage vectors; ``coverage``
    the IDF share of the question's terms found in one sentence. When the late scorer is not
    available the dense thresholds apply instead.
    """

    match_late: float
    match_coverage: float
    related_late: float
    match_dense: float
    related_dense: float
    related_coverage: float
    # Below all of these the best hit is far from the question: it is "not in your material"
    # even without a model. Between them and the related bar, only a reader could tell.
    far_late: float = 0.40
    far_dense: float = 0.12
    far_coverage: float = 0.20


# Calibrated on eval/retrieval/v1 (numbers in its README). Without a model, retrieval scores
# cannot tell "this passage answers it" from "this passage is about it": SQuAD 2.0's
# unanswerable questions score as high as the answerable ones (late up to 0.856, dense up to
# 0.807 on dev), while off-topic questions stay far lower (late <= 0.63, coverage <= 0.35).
# Every threshold therefore sits above the highest score any unanswerable dev question reached,
# with a margin for unseen material: a false citation is worse than a missed one. Below it the
# answer still lists the nearest passages, marked as not cited.
# The far bars sit under the lowest best hit of any answerable dev question (late 0.44, dense
# 0.18, coverage 0.20): on the dev set they call 4 of the 10 off-topic course questions far and
# no answerable one.
CALIBRATION = Calibration(
    match_late=0.92, match_coverage=0.99, related_late=0.90,
    match_dense=0.88, related_dense=0.86, related_coverage=0.60,
)


@dataclass(frozen=True)
class Decision:
    case: Case
    cited: tuple[int, ...]  # indexes into the ranked hits that may be cited, best first


def passes(signals: Mapping[str, float], level: Literal["match", "related"],
           cal: Calibration = CALIBRATION) -> bool:
    coverage = signals.get("coverage", 0.0)
    if "late" in signals:
        late = signals["late"]
        if level == "match":
            return late >= cal.match_late and coverage >= cal.match_coverage
        return late >= cal.related_late and coverage >= cal.related_coverage
    dense = signals.get("dense", 0.0)
    if level == "match":
        return dense >= cal.match_dense and coverage >= cal.match_coverage
    return dense >= cal.related_dense and coverage >= cal.related_coverage


def is_far(signals: Mapping[str, float], cal: Calibration = CALIBRATION) -> bool:
    """The best hit is far from the question on every signal: the material plainly does not
    cover it (a claim made without a model only this far below every answerable question)."""
    if signals.get("coverage", 0.0) >= cal.far_coverage:
        return False
    if "late" in signals:
        return signals["late"] < cal.far_late
    return signals.get("dense", 0.0) < cal.far_dense


def decide_by_scores(hits: Sequence[Mapping[str, float]], cal: Calibration = CALIBRATION,
                     max_cited: int = 3) -> Decision:
    """Case from the signals of the ranked hits (best first)."""
    top = hits[:max_cited]
    match = tuple(i for i, s in enumerate(top) if passes(s, "match", cal))
    if match and match[0] == 0:
        return Decision("MATCH", match)
    related = tuple(i for i, s in enumerate(top) if passes(s, "related", cal))
    if related and related[0] == 0:
        return Decision("RELATED", related)
    return Decision("NO_MATCH", ())


def decide_by_grades(grades: Sequence[RerankGrade | None], max_cited: int = 3) -> Decision:
    """Case from a model reranker's grades of the ranked hits (best first)."""
    answers = tuple(i for i, g in enumerate(grades) if g in ("answers", "partial"))
    if answers:
        ordered = sorted(answers, key=lambda i: (grades[i] != "answers", i))
        return Decision("MATCH", tuple(ordered[:max_cited]))
    related = tuple(i for i, g in enumerate(grades) if g == "related")
    if related:
        return Decision("RELATED", related[:max_cited])
    return Decision("NO_MATCH", ())


# --- questions asked from inside a source ---------------------------------------------------

_DEICTIC = re.compile(
    r"\b(this|these|here|right now|on (the )?screen|just (said|say|mentioned|explained)|"
    r"at this (point|moment)|this (part|bit|slide|page|moment|section))\b", re.IGNORECASE)
_NAVIGATE = re.compile(
    r"^\s*(please\s+)?(take me|bring me|jump|skip|go|seek|navigate)\s+(back\s+)?(to|where)\b|"
    r"^\s*(please\s+)?show me where\b", re.IGNORECASE)


def is_about_here(question: str) -> bool:
    """A "this" question: about what is on screen at the learner's position."""
    return bool(_DEICTIC.search(question))


def wants_navigation(question: str) -> bool:
    """Only an explicit request ("take me to ...") moves the player or reader."""
    return bool(_NAVIGATE.search(question))


def navigation_target(question: str) -> str:
    """What to look for in "take me to where they define closures" -> "where they define closures"."""
    return _NAVIGATE.sub("", question, count=1).strip() or question


def suggestions(cited: Sequence[Chunk], current: Chunk | None = None, limit: int = 2) -> tuple[Chunk, ...]:
    """At most ``limit`` distinct moments or pages to jump to, never the one on screen."""
    out: list[Chunk] = []
    for chunk in cited:
        if not chunk.anchor or (current is not None and chunk.link == current.link):
            continue
        if all(c.link != chunk.link for c in out):
            out.append(chunk)
        if len(out) == limit:
            break
    return tuple(out)
