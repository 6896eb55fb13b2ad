"""Note file names for an exported vault: safe on Windows, macOS and Linux and inside Obsidian
wikilinks, unique even where the file system ignores case, and stable from one export to the
next (a name depends on the node's own text and id only)."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import defaultdict
from collections.abc import Mapping

MAX_STEM = 60
# Kept: letters, digits, spaces and plain punctuation. Everything else is unsafe in a file name
# somewhere (Windows: <>:"/\\|?*), breaks a wikilink ([ ] # ^ |) or is Markdown that a parser
# reads inside the link (` $ * _ ~ and HTML), which would change the name the link asks for.
_UNSAFE = re.compile(r"(?:[^\w\s\-.,'()&+;@%]|_)+")
_RESERVED = frozenset({"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)),
                       *(f"lpt{i}" for i in range(1, 10))})


def stem_of(text: str) -> str:
    """A file-name stem from a topic's text: its first words, made safe."""
    clean = _UNSAFE.sub(" ", unicodedata.normalize("NFC", text))
    clean = " ".join(clean.split()).strip(" .")  # no leading/trailing dots or spaces
    if len(clean) > MAX_STEM:
        cut = clean[:MAX_STEM].rsplit(" ", 1)[0]
        clean = (cut if len(cut) >= MAX_STEM // 2 else clean[:MAX_STEM]).rstrip(" .")
    if not clean or clean.split(".")[0].lower() in _RESERVED:
        clean = f"Topic {clean}".strip()
    return clean


def _tag(node_id: str) -> str:
    return hashlib.sha256(node_id.encode()).hexdigest()[:6]


def note_names(texts: Mapping[str, str]) -> dict[str, str]:
    """node id -> ``<stem>.md``. Topics whose stems collide (case-insensitively) all get a
    short tag from their id, so the names do not depend on which one came first."""
    stems = {nid: stem_of(text) for nid, text in texts.items()}
    groups: defaultdict[str, list[str]] = defaultdict(list)
    for nid, stem in stems.items():
        groups[stem.casefold()].append(nid)
    names: dict[str, str] = {}
    for members in groups.values():
        for nid in members:
            stem = stems[nid] if len(members) == 1 else f"{stems[nid]} ({_tag(nid)})"
            names[nid] = f"{stem}.md"
    taken = [n.casefold() for n in names.values()]
    if len(set(taken)) != len(taken):  # a tagged name met an untagged one: use the full id tag
        names = {nid: f"{stems[nid]} ({hashlib.sha256(nid.encode()).hexdigest()[:16]}).md"
                 for nid in stems}
    return names
