"""The lexical analyzer shared by indexing and querying: accents folded, lower case, English
stop words dropped, Snowball-stemmed (so "Normans" meets "Norman" and "Fécamp" meets "Fecamp")."""

from __future__ import annotations

import re
import unicodedata
from functools import cache, lru_cache
from typing import Any

_WORD = re.compile(r"[a-z0-9]+")


@cache
def _stemmer() -> Any:
    import Stemmer  # on the first search or import, not at start-up

    return Stemmer.Stemmer("english")


# Function words and question words carry no topic: "what is the maximal munch rule" should
# be about "maximal munch rule". (Lucene's 33-word list keeps "what", "how", "does", ...)
_STOPWORDS = frozenset(["a", "about", "above", "after", "again", "against", "all", "am", "an", "and", "any", "are", "as", "at", "be", "because", "been", "before", "being", "below", "between", "both", "but", "by", "can", "could", "did", "do", "does", "doing", "down", "during", "each", "few", "for", "from", "further", "had", "has", "have", "having", "he", "her", "here", "hers", "herself", "him", "himself", "his", "how", "i", "if", "in", "into", "is", "it", "its", "itself", "just", "me", "more", "most", "my", "myself", "no", "nor", "not", "now", "of", "off", "on", "once", "only", "or", "other", "our", "ours", "ourselves", "out", "over", "own", "same", "she", "should", "so", "some", "such", "than", "that", "the", "their", "theirs", "them", "themselves", "then", "there", "these", "they", "this", "those", "through", "to", "too", "under", "until", "up", "very", "was", "we", "were", "what", "when", "where", "which", "while", "who", "whom", "whose", "why", "will", "with", "would", "you", "your", "yours", "yourself", "yourselves"])


@lru_cache(maxsize=1)
def _stopwords() -> frozenset[str]:
    return _STOPWORDS


def fold(text: str) -> str:
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    return str(_stemmer().stemWord(word))


def terms(text: str) -> list[str]:
    stop = _stopwords()
    return [_stem(w) for w in _WORD.findall(fold(text)) if w not in stop]


def analyzed(text: str) -> list[tuple[str, str]]:
    """(word as written, folded; its index term) for every non-stop word, in order."""
    stop = _stopwords()
    return [(w, _stem(w)) for w in _WORD.findall(fold(text)) if w not in stop]
