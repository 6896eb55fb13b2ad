"""Correctable memory: what the learner said of a topic or idea ("I know this", "I don't know
this", "this is wrong"), as the API shows it, and the one rule for its note — plain text, one
paragraph, at most ``ASSERTION_NOTE_CHARS`` characters (the window renders it as text, never as
Markdown or HTML). How an assertion weighs in the score is ``tracing.ASSERTED``'s.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from studyhall.core.contracts.learner import ASSERTION_NOTE_CHARS, LearnerAsserted
from studyhall.core.errors import InvalidInput
from studyhall.core.library.learner.tracing import odds_weight

_SPACE = re.compile(r"\s+")


def plain_note(note: str) -> str:
    """The note as it is kept: control and format characters (bidi overrides, zero-width
    marks) become spaces, runs of white space one space. ``InvalidInput`` when it is longer
    than the cap — refused whole, never cut where the learner cannot see it."""
    cleaned = "".join(" " if unicodedata.category(c) in ("Cc", "Cf") else c for c in note)
    cleaned = _SPACE.sub(" ", cleaned).strip()
    if len(cleaned) > ASSERTION_NOTE_CHARS:
        raise InvalidInput(f"The note is {len(cleaned)} characters; keep it to "
                           f"{ASSERTION_NOTE_CHARS} (a sentence or two). Nothing was recorded.")
    return cleaned


def assertion_json(said: LearnerAsserted) -> dict[str, Any]:
    """One live assertion: its id (to take it back), what was said, the note, when, and the
    weight it has on the odds of knowing (1: it moves nothing by itself)."""
    return {"id": said.id, "claim": said.claim, "note": said.note,
            "at": said.at.isoformat(), "weight": odds_weight(said.claim)}
