"""Whether a name reads as a learner's words: a region or cluster label is never a code token.

A vault's headings hold code (``list()``, ``strip_md``, ``linksTo()``) and one-word API headings
("round", "Parameters"): named by one of those, a region reads as a program, not a map. A name
is readable when it has no brackets, backticks or underscores, no camelCase inside a word, no
dotted or slashed identifier, some letters, and is not a single lower-case or generic word.
"""

from __future__ import annotations

import re

# One-word headings that say what kind of section it is, not what it is about (never a word a
# note is often titled by, like "Properties" or "Setup").
GENERIC_WORDS = frozenset([
    "arguments", "args", "attributes", "contents", "description", "details", "example",
    "examples", "general", "index", "intro", "introduction", "misc", "notes", "options",
    "other", "overview", "parameters", "params", "references", "returns", "see", "summary",
    "syntax", "todo", "untitled", "usage",
])

_CODE_MARKS = re.compile(r"[()\[\]{}<>`_=|\\]|::|->")
_CAMEL = re.compile(r"[a-z][A-Z]")
_IDENT_PATH = re.compile(r"\w[./]\w")  # os.path, a/b: an identifier or a path, not a name
_LETTER = re.compile(r"[^\W\d_]")


def readable(name: str | None) -> bool:
    """True when ``name`` may label the map (see the module docstring)."""
    if not name:
        return False
    text = " ".join(name.split())
    if not _LETTER.search(text) or _CODE_MARKS.search(text) or _CAMEL.search(text):
        return False
    if _IDENT_PATH.search(text):
        return False
    words = text.split(" ")
    if len(words) == 1:
        word = words[0].strip(".,:;!?…")
        return not (word.islower() or word.casefold() in GENERIC_WORDS)
    return True
