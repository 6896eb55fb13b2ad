"""When a question needs a standalone search query before retrieval — decided by a cheap rule,
in code, never by a model.

A question is searched as it was asked unless one of these holds:
- ``reference``: it points at something said before or shown on screen ("How does *it* handle
  cycles?", "why is that?") and there is a conversation or an on-screen passage to resolve it;
- ``ellipsis``: it only makes sense after the previous turn ("and for cycles?", "what about
  generational GC?", a fragment such as "in python?") and there is a conversation;
- ``typo``: a word of it is unknown to the index but one edit away from a word the index has.

Only then does a model (the ``rewriter`` role) write the standalone query; the retriever
searches with both that and the question as asked, so a bad rewrite cannot lose the original's
hits. With no model nothing is rewritten. Without any context a pronoun cannot be resolved, so a
bare "what is it?" is searched as asked.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

Reason = Literal["reference", "ellipsis", "typo"]
HISTORY_TURNS = 6  # the most recent turns a rewrite (and an answer) may look at
TURN_CHARS = 1500  # each turn clipped to this: the recent gist is what resolves a pronoun


@dataclass(frozen=True)
class Turn:
    """One earlier turn of the conversation the question follows."""

    role: Literal["user", "assistant"]
    text: str


class QueryRewriter(Protocol):
    async def rewrite(self, question: str, history: Sequence[Turn], on_screen: str | None,
                      reason: Reason) -> str | None:
        """A standalone search query for ``question``, or ``None`` when it already stands
        alone. Raises ``ModelError`` when the model cannot run or answers malformed."""
        ...


# Pronouns and determiners that point back. "that" only where it cannot be a relative pronoun
# ("the rule that says ..." is standalone): after a verb or preposition, or closing the question.
_REFERENCE = re.compile(
    r"\b(it|its|it's|itself|they|them|their|theirs|these|those|this|he|him|his|she|her|"
    r"the (former|latter|same one|other one|last one|previous one|first one|second one))\b|"
    r"\b(is|was|does|do|did|about|of|by|explain|mean|means|with|like|on|for|in|behind)\s+that\b|"
    r"\bthat\s*[?.!]*\s*$",
    re.IGNORECASE,
)
_ELLIPSIS = re.compile(
    r"^\s*(?:(?:and|but|or|so|also|then|what about|how about|what else|why not|how so|"
    r"tell me more|more on|go on|for example|examples?|such as|same for|what if)\b|"
    r"why\s*\??\s*$)",
    re.IGNORECASE,
)
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
# A fragment ("closures?", "in python?") leans on the turn before; a question that opens with
# a question word or a verb ("What is a closure?") stands on its own however short it is.
_OPENERS = frozenset((
    "what", "which", "who", "whom", "whose", "why", "how", "when", "where", "is", "are", "was",
    "were", "do", "does", "did", "can", "could", "would", "should", "will", "shall", "may",
    "might", "must", "has", "have", "had", "define", "explain", "describe", "list", "compare",
))
FRAGMENT_WORDS = 3


def is_fragment(question: str) -> bool:
    words = _WORD.findall(question.lower())
    return 0 < len(words) <= FRAGMENT_WORDS and words[0] not in _OPENERS


def rewrite_reason(question: str, *, history: Sequence[Turn] = (), on_screen: bool = False,
                   spelling: Callable[[str], Sequence[str]] | None = None) -> Reason | None:
    """Why ``question`` should be rewritten before searching, or ``None`` when it stands alone.
    ``spelling`` lists a query's likely misspelt words (the index's ``likely_typos``); it is
    asked only when nothing else calls for a rewrite."""
    conversation = any(t.text.strip() for t in history)
    if (conversation or on_screen) and _REFERENCE.search(question):
        return "reference"
    if conversation and (_ELLIPSIS.search(question) or is_fragment(question)):
        return "ellipsis"
    if spelling is not None and spelling(question):
        return "typo"
    return None


def recent(history: Sequence[Turn], turns: int = HISTORY_TURNS, chars: int = TURN_CHARS) -> list[Turn]:
    """The last ``turns`` non-empty turns, each clipped to its last ``chars`` characters."""
    kept = [t for t in history if t.text.strip()][-turns:]
    return [Turn(t.role, t.text if len(t.text) <= chars else "…" + t.text[-chars:]) for t in kept]


def interleave(first: Sequence[str], second: Sequence[str]) -> list[str]:
    """Merge two rankings of ids by alternating (``first`` leads), each id at its best place.

    Why alternate and not add scores: the two searches score against different queries, and
    alternating guarantees the question-as-asked keeps its place — its k-th hit lands within
    the first 2k — however wrong the rewrite is.
    """
    out: dict[str, None] = {}
    for i in range(max(len(first), len(second))):
        for ranking in (first, second):
            if i < len(ranking):
                out.setdefault(ranking[i], None)
    return list(out)
