"""Without a model, one kind of answer can be told from a passage that is only *about* the
question: a definition. "What is a closure?" is answered by a passage that says "Closure: a
function bundled with …" or "A closure is …", or by the section headed "Closure".

Retrieval scores cannot separate answered from merely related questions (eval/retrieval/v1's
README: SQuAD 2.0's unanswerable questions score as high as the answerable ones), so this
rule is a separate, narrow test: the question asks what a short term is or means, and a
sentence of the passage starts by defining exactly that term. Both patterns are bounded, and
the term is matched as literal text, so the scan is linear in the passage.
"""

from __future__ import annotations

import re

from studyhall.core.contracts.search import Chunk

MAX_TERM_WORDS = 5
_ASKS = re.compile(
    r"^\s*(?:what\s+is\s+meant\s+by|what\s+do\s+(?:you|we|they)\s+mean\s+by|"
    r"(?:what\s+is\s+)?the\s+meaning\s+of|what(?:'s|\s+is|\s+are)|define|what\s+does|explain)\s+"
    r"(?P<term>[^?.!\n]{1,80}?)(?:\s+mean)?\s*[?.!]?\s*$",
    re.IGNORECASE,
)
_ARTICLE = re.compile(r"^(?:an?|the)\s+", re.IGNORECASE)
# After the term, what makes a sentence its definition.
_DEFINING = r"\s*(?:\([^()\n]{0,80}\)\s*)?(?::|—|–|\s-\s|,?\s+(?:is|are|means|refers\s+to|denotes|describes)\b)"
_SENTENCE_START = r"(?:^|(?<=[.!?\n])\s*|^#{1,6}\s+|\n\s*[-*]\s+|\*\*)"


def asked_term(question: str) -> str | None:
    """The term a definition question asks about ("a closure" -> "closure"), else None."""
    m = _ASKS.match(question)
    if m is None:
        return None
    term = _ARTICLE.sub("", m.group("term").strip()).strip(" \"'“”*`")
    words = term.split()
    if not words or len(words) > MAX_TERM_WORDS or not any(ch.isalpha() for ch in term):
        return None
    return term


def _variants(term: str) -> tuple[str, ...]:
    """The term as asked and in its other number ("closures" <-> "closure")."""
    low = term.lower()
    other = low[:-1] if low.endswith("s") and not low.endswith("ss") else low + "s"
    return (low, other)


def defines(chunk: Chunk, term: str) -> bool:
    """Whether the passage's heading is the term or one of its sentences starts by defining it."""
    names = _variants(term)
    if chunk.heading is not None and _ARTICLE.sub("", chunk.heading.strip().lower()) in names:
        return True
    text = chunk.text.lower()
    for name in names:
        pattern = (_SENTENCE_START + r"(?:an?\s+|the\s+)?\**" + re.escape(name) + r"\**" + _DEFINING)
        if re.search(pattern, text):
            return True
    return False


def defining_hits(question: str, chunks: list[Chunk], depth: int = 3) -> tuple[int, ...]:
    """Indexes (into ``chunks``, best first, within ``depth``) of passages that define the
    term the question asks about; empty when it asks no definition."""
    term = asked_term(question)
    if term is None:
        return ()
    return tuple(i for i, c in enumerate(chunks[:depth]) if defines(c, term))
