"""YAML frontmatter: where it is (pure string work) and what Obsidian reads from it.

Parsing the YAML itself is an adapter's job (a safe loader); the core only splits the block off
and normalizes the already-parsed mapping into tags, aliases and a title.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

_FENCE = "---"


@dataclass(frozen=True)
class Frontmatter:
    """The frontmatter block of a note: its YAML text and the first line of the body."""

    yaml: str | None  # None when the note has no (closed) frontmatter block
    body_start: int  # 0-based index of the first body line


@dataclass(frozen=True)
class NoteMeta:
    tags: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    title: str | None = None


def split_frontmatter(text: str) -> Frontmatter:
    """A frontmatter block opens on the very first line with ``---`` and closes with ``---``
    (or ``...``) on a line of its own. An unclosed block is not frontmatter (Obsidian agrees)."""
    lines = text.split("\n")
    if not lines or lines[0].rstrip() != _FENCE:
        return Frontmatter(None, 0)
    for i in range(1, len(lines)):
        if lines[i].rstrip() in (_FENCE, "..."):
            return Frontmatter("\n".join(lines[1:i]), i + 1)
    return Frontmatter(None, 0)


def note_meta(meta: Mapping[str, Any] | None) -> NoteMeta:
    """Tags and aliases as Obsidian accepts them: a list, or one string (comma separated for
    aliases, comma or space separated for tags); singular keys ``tag``/``alias`` too."""
    if not meta:
        return NoteMeta()
    keys = {str(k).lower(): v for k, v in meta.items()}
    tags = _strings(keys.get("tags", keys.get("tag")), split_spaces=True)
    aliases = _strings(keys.get("aliases", keys.get("alias")), split_spaces=False)
    title = keys.get("title")
    return NoteMeta(
        tags=tuple(_unique(t.lstrip("#") for t in tags if t.lstrip("#"))),
        aliases=tuple(_unique(aliases)),
        title=title.strip() if isinstance(title, str) and title.strip() else None,
    )


def _strings(value: Any, *, split_spaces: bool) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        parts = value.replace(",", " " if split_spaces else ",").split(
            None if split_spaces else ","
        )
        return [p.strip() for p in parts if p.strip()]
    if isinstance(value, Sequence):
        out: list[str] = []
        for item in value:
            # YAML turns `- 2024` into an int and `- yes` into a bool; Obsidian keeps the text.
            if isinstance(item, (str, int, float)) and not isinstance(item, bool):
                text = str(item).strip()
                if text:
                    out.append(text)
        return out
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return [str(value)]
    return []


def _unique(items: Any) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    for item in items:
        key = item.lower()
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out
