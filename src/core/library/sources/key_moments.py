"""A transcript's key moments, with no model: the lecture cut where its vocabulary shifts
(TextTiling-style: TF-IDF over fixed windows of cues, a cut at each deep dip in the similarity
of the blocks either side), each moment named by the sentence that best carries its most
salient terms."""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

WINDOW = 60.0  # seconds of cues per window
BLOCK = 2  # windows compared either side of a candidate cut
MIN_GAP = 3  # windows between two cuts at least
MAX_MOMENTS = 14
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]{2,}")
_STOP_WORDS = """
the and for are but not you all any can had her was one our out day get has him his how man new
now old see two way who boy did its let put say she too use that with have this will your from
they know want been good much some time very when come here just like long make many more only
over such take than them well were what which while about after again also because before being
could does doing down each every into other should there these those through under until would
then their going right okay actually basically really thing things something
"""
_STOP = frozenset(_STOP_WORDS.split())


@dataclass(frozen=True)
class Cue:
    start: float
    end: float
    text: str


@dataclass(frozen=True)
class Moment:
    start: float
    end: float
    title: str  # the sentence that best names it
    terms: tuple[str, ...]  # its most salient terms


def _terms(text: str) -> list[str]:
    return [w for w in (m.lower().strip("'-") for m in _WORD.findall(text)) if w not in _STOP]


def _windows(cues: Sequence[Cue]) -> list[list[Cue]]:
    out: list[list[Cue]] = []
    for cue in cues:
        index = int(cue.start // WINDOW)
        while len(out) <= index:
            out.append([])
        out[index].append(cue)
    return [w for w in out if w]


def _cosine(a: Counter[str], b: Counter[str]) -> float:
    dot = sum(v * b[k] for k, v in a.items() if k in b)
    na = math.sqrt(sum(v * v for v in a.values()))
    nb = math.sqrt(sum(v * v for v in b.values()))
    return dot / (na * nb) if na and nb else 0.0


def _weighted(counts: Counter[str], idf: dict[str, float]) -> Counter[str]:
    return Counter({w: c * idf[w] for w, c in counts.items()})


def _cuts(vectors: list[Counter[str]]) -> list[int]:
    """Window indexes where a new moment starts (TextTiling depth scores, deepest first)."""
    n = len(vectors)
    if n < 2 * MIN_GAP:
        return []
    sims = []
    for gap in range(1, n):
        left, right = Counter[str](), Counter[str]()
        for v in vectors[max(0, gap - BLOCK):gap]:
            left.update(v)
        for v in vectors[gap:gap + BLOCK]:
            right.update(v)
        sims.append(_cosine(left, right))
    depths = []
    for i, s in enumerate(sims):
        # The nearest peaks climbing away from the dip, as TextTiling measures depth.
        j = i
        while j > 0 and sims[j - 1] >= sims[j]:
            j -= 1
        lpeak = sims[j]
        j = i
        while j < len(sims) - 1 and sims[j + 1] >= sims[j]:
            j += 1
        rpeak = sims[j]
        depths.append((lpeak - s) + (rpeak - s))
    mean = sum(depths) / len(depths)
    spread = math.sqrt(sum((d - mean) ** 2 for d in depths) / len(depths))
    threshold = mean + spread / 2
    cuts: list[int] = []
    for i in sorted(range(len(depths)), key=lambda i: -depths[i]):
        gap = i + 1
        if depths[i] <= threshold or depths[i] <= 0:
            break
        if gap < MIN_GAP or n - gap < MIN_GAP or any(abs(gap - c) < MIN_GAP for c in cuts):
            continue
        cuts.append(gap)
        if len(cuts) == MAX_MOMENTS - 1:
            break
    return sorted(cuts)


def key_moments(cues: Sequence[Cue]) -> list[Moment]:
    """The moments of a transcript in order (one for a short or uniform one; none for none)."""
    windows = _windows([c for c in cues if c.text.strip()])
    if not windows:
        return []
    counts = [Counter(_terms(" ".join(c.text for c in w))) for w in windows]
    df: Counter[str] = Counter()
    for c in counts:
        df.update(c.keys())
    idf = {w: math.log(len(counts) / d) + 1.0 for w, d in df.items()}
    cuts = _cuts([_weighted(c, idf) for c in counts])
    bounds = [0, *cuts, len(windows)]
    parts = [[cue for w in windows[a:b] for cue in w] for a, b in itertools.pairwise(bounds)]
    segment_counts = [Counter(_terms(" ".join(c.text for c in part))) for part in parts]
    seg_df: Counter[str] = Counter()
    for c in segment_counts:
        seg_df.update(c.keys())
    moments = []
    for part, seg in zip(parts, segment_counts):
        # A word said in every moment names none of them (log 1 = 0); one moment alone: all.
        score = {w: c * (math.log(len(parts) / seg_df[w]) if len(parts) > 1 else 1.0)
                 for w, c in seg.items()}
        top = tuple(w for w in sorted(score, key=lambda w: (-score[w], w))[:4] if score[w] > 0)
        moments.append(Moment(part[0].start, part[-1].end, _title(part, top, score), top))
    return moments


def _title(part: Sequence[Cue], top: Sequence[str], score: dict[str, float]) -> str:
    """The cue that carries the moment's top terms best (earliest on a tie), trimmed."""
    best, best_score = part[0], -1.0
    for cue in part:
        words = set(_terms(cue.text))
        s = sum(score[w] for w in top if w in words)
        if s > best_score:
            best, best_score = cue, s
    text = " ".join(best.text.split())
    return text if len(text) <= 90 else text[:87].rsplit(" ", 1)[0] + "…"
