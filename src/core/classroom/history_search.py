"""Searching past sessions' messages for what was said about something (``search_history``).

Only what was said is searched: the learner's messages and the tutor's text — not steers (the
app's notes, job results, graph context), not tool calls. A message matches when it holds the
query as a phrase, or most of its words (a word matches another that starts with it, so "heap"
finds "heaps"); the best matches come first, newer ones first among equals, each as an excerpt
around its first matching word.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from studyhall.core.contracts.chat import ChatRecord, SteerPart, TextPart

EXCERPT_CHARS = 280
MIN_SHARE = 0.5  # of the query's words a message must hold (a phrase match always counts)
_WORD = re.compile(r"\w+")
# Words too common to say what a message is about.
_STOP_WORDS = (
    "a an and are as at be but by can do does for from how i in is it of on or so that the "
    "this to was what when where which who why with you your me my we our about did")
_STOP = frozenset(_STOP_WORDS.split())


@dataclass(frozen=True)
class HistoryHit:
    chat_id: str
    session: str  # the session's title or topic
    message_id: str
    role: str  # "learner" or "tutor"
    at: datetime
    excerpt: str
    score: float


def query_words(query: str) -> list[str]:
    words = [w for w in _WORD.findall(query.casefold()) if w not in _STOP]
    return list(dict.fromkeys(words))


def _score(phrase: str, wanted: list[str], text: str) -> tuple[float, int]:
    """(score, where the excerpt starts), score 0 for no match."""
    folded = text.casefold()
    at = folded.find(phrase) if phrase else -1
    if at >= 0:
        return 1.0, at
    if not wanted:
        return 0.0, 0
    found: list[int] = []
    for word in wanted:
        m = re.search(rf"\b{re.escape(word)}", folded)
        if m is not None:
            found.append(m.start())
    share = len(found) / len(wanted)
    return (0.9 * share, min(found)) if share >= MIN_SHARE else (0.0, 0)


def excerpt(text: str, at: int, chars: int = EXCERPT_CHARS) -> str:
    start = max(0, at - chars // 3)
    piece = " ".join(text[start:start + chars].split())
    return ("…" if start else "") + piece + ("…" if start + chars < len(text) else "")


def search_history(records: Iterable[ChatRecord], query: str, *, limit: int = 5,
                   skip_chat: str | None = None) -> list[HistoryHit]:
    """The best ``limit`` matching messages of ``records`` (``skip_chat``: this session)."""
    phrase = " ".join(query.casefold().split())
    wanted = query_words(query)
    hits: list[HistoryHit] = []
    for record in records:
        if record.id == skip_chat:
            continue
        session = record.title or record.topic or record.id
        for message in record.messages:
            if any(isinstance(p, SteerPart) for p in message.parts):
                continue
            text = "\n".join(p.text for p in message.parts if isinstance(p, TextPart))
            score, at = _score(phrase, wanted, text)
            if score > 0:
                hits.append(HistoryHit(
                    record.id, session, message.id,
                    "learner" if message.role == "user" else "tutor", message.created_at,
                    excerpt(text, at), round(score, 2)))
    hits.sort(key=lambda h: (-h.score, -h.at.timestamp(), h.message_id))
    return hits[:limit]
