"""The key terms of each topic: TF-IDF over the vault, where a document is one topic's text
(its title and statements) — the words that say what this note is about and no other.

Hand-written (a dozen lines of counting) rather than scikit-learn's ``TfidfVectorizer``: the
learner model builds it on every graph change in a worker thread, and the core stays free of a
heavy import. A term is a content word: letters (inner ``'`` or ``-`` allowed), at least four
of them, never a stop or function word, never a number. A word in more than half of the
topics (once there are a few) says nothing about any one of them and is never key.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from functools import lru_cache

_WORD = re.compile(r"[^\W\d_][\w'’-]*[^\W_]|[^\W\d_]{2,}")
MIN_LETTERS = 4
COMMON_SHARE = 0.5  # a word in more than this share of the topics is nobody's key term
MIN_TOPICS_FOR_SHARE = 4  # below this many topics every content word may be key
_STOP_WORDS = """
a about above after again against all also am an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further had
has have having he her here hers herself him himself his how i if in into is it its itself just
let me more most my myself no nor not now of off on once only or other our ours ourselves out over
own same she should so some such than that the their theirs them themselves then there these
they this those through to too under until up very was we were what when where which while who
whom why will with would you your yours yourself yourselves one two many much every thing things
way ways use used uses using called means mean make makes made get gets got like well also often
without within upon across along among around another following follows follow shows show shown
see seen read lets able less least must might may shall still even ever here there therefore
thus hence however whether either neither yet since though although unless whereas else etc
first second third last next new old good best better small large big lot lots kind sort part
parts case cases example examples instance something anything everything nothing someone anyone
able always never sometimes usually often really quite rather just various several given takes
take taken give gives keep keeps kept goes going gone come comes came want wants need needs
processes process work works working worked change changes changed open opens opened close
"""
STOP = frozenset(_STOP_WORDS.split())


def words(text: str) -> list[str]:
    return _WORD.findall(text)


@lru_cache(maxsize=65536)  # a vault's vocabulary is small; its words are checked millions of times
def _base(word: str) -> str:
    """Lower case, without a possessive or contraction ending ("it's" -> "it")."""
    low = word.lower().replace("’", "'").strip("'-")
    return low.removesuffix("'s")


@lru_cache(maxsize=65536)
def is_content_word(word: str) -> bool:
    """A word a blank may be: long enough, all letters where it counts, not a stop word."""
    low = _base(word)
    return len(low) >= MIN_LETTERS and low not in STOP and not any(c.isdigit() for c in low)


@lru_cache(maxsize=65536)
def fold(word: str) -> str:
    """The counting form: lower case, a plain plural taken as its singular ("panes" -> "pane")."""
    low = _base(word)
    if len(low) > 3 and low.endswith("s") and not low.endswith(("ss", "us", "is")):
        return low[:-1]
    return low


class KeyTerms:
    """Document frequencies over every topic, and each topic's terms ranked by TF-IDF."""

    def __init__(self, topics: Mapping[str, Iterable[str]]) -> None:
        self._counts: dict[str, Counter[str]] = {}
        self.df: Counter[str] = Counter()
        for topic, texts in topics.items():
            counts: Counter[str] = Counter(
                fold(w) for text in texts for w in words(text) if is_content_word(w))
            self._counts[topic] = counts
            self.df.update(counts.keys())
        self.topics = len(self._counts)

    def common(self, term: str) -> bool:
        """In so many topics that it names none of them."""
        if self.topics < MIN_TOPICS_FOR_SHARE:
            return False
        return self.df[fold(term)] > COMMON_SHARE * self.topics

    def idf(self, term: str) -> float:
        # Smoothed as scikit-learn's default (``smooth_idf``): never zero, never divides by zero.
        return math.log((1 + self.topics) / (1 + self.df[fold(term)])) + 1.0

    def ranked(self, topic: str, most: int = 8) -> list[tuple[str, float]]:
        """The topic's key terms (folded form) with their TF-IDF score, best first."""
        counts = self._counts.get(topic, Counter())
        scored = [(term, tf * self.idf(term)) for term, tf in counts.items()
                  if not self.common(term)]
        scored.sort(key=lambda pair: (-pair[1], -len(pair[0]), pair[0]))
        return scored[:most]

    def of(self, topic: str, most: int = 8) -> dict[str, float]:
        return dict(self.ranked(topic, most))
