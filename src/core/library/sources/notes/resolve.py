"""Link resolution the way Obsidian does it, over the vault's file list.

Order: a path relative to the linking note (``./``, ``../``, and Markdown links), the exact
vault path, a path suffix (``[[sub/Note]]``), the file name (case-insensitive, ``.md`` implied),
then a note alias. When several files match, the shortest path wins (fewest folders, then
fewest characters, then alphabetical, so the choice is deterministic). Nothing is invented: a
link that matches no file is broken, and a path that climbs out of the vault is broken too.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

NOTE_EXTENSIONS = (".md", ".markdown")


@dataclass(frozen=True)
class Resolution:
    target: str | None  # vault-relative path of the file, None when broken
    how: Literal["relative", "path", "suffix", "name", "alias", "self", "broken"]
    reason: str | None = None  # why it is broken

    @property
    def ok(self) -> bool:
        return self.target is not None


def _key(text: str) -> str:
    # macOS stores names decomposed (NFD); a link typed on Linux is composed (NFC).
    return unicodedata.normalize("NFC", text).lower()


def _shortest(paths: Iterable[str]) -> str:
    return min(paths, key=lambda p: (p.count("/"), len(p), p))


def is_note(path: str) -> bool:
    return path.lower().endswith(NOTE_EXTENSIONS)


class VaultIndex:
    """Every file of the vault (notes and attachments) plus each note's aliases."""

    def __init__(self, paths: Iterable[str], aliases: Mapping[str, Iterable[str]] | None = None):
        self.paths = tuple(sorted(set(paths)))
        self._by_path: dict[str, str] = {}
        self._by_name: dict[str, list[str]] = {}
        self._by_alias: dict[str, list[str]] = {}
        for path in self.paths:
            self._by_path.setdefault(_key(path), path)
            self._by_name.setdefault(_key(path.rsplit("/", 1)[-1]), []).append(path)
        for path, names in (aliases or {}).items():
            for alias in names:
                self._by_alias.setdefault(_key(alias.strip()), []).append(path)

    def resolve(self, target: str, source: str, *, markdown: bool = False) -> Resolution:
        """Resolve a link path written in note ``source`` (both vault-relative)."""
        link = target.strip().replace("\\", "/")
        if not link:
            return Resolution(source, "self")
        relative = markdown or link.startswith(("./", "../"))
        if relative:
            joined = _join(source.rsplit("/", 1)[0] if "/" in source else "", link)
            if joined is None:
                return Resolution(None, "broken", "the link points outside the vault")
            hit = self._exact(joined)
            if hit is not None:
                return Resolution(hit, "relative")
            if link.startswith(("./", "../")):
                return Resolution(None, "broken", "no such file")
        link = link.lstrip("/")
        hit = self._exact(link)
        if hit is not None:
            return Resolution(hit, "path")
        if "/" in link:
            hit = self._suffix(link)
            return Resolution(hit, "suffix") if hit else Resolution(None, "broken", "no such file")
        hit = self._name(link)
        if hit is not None:
            return Resolution(hit, "name")
        owners = self._by_alias.get(_key(link))
        if owners:
            return Resolution(_shortest(owners), "alias")
        return Resolution(None, "broken", "no such note")

    def _candidates(self, link: str) -> list[str]:
        # A link without a note extension means the note; with one, the file itself.
        return [link] if is_note(link) else [link + ".md", link + ".markdown", link]

    def _exact(self, link: str) -> str | None:
        for cand in self._candidates(link):
            hit = self._by_path.get(_key(cand))
            if hit is not None:
                return hit
        return None

    def _suffix(self, link: str) -> str | None:
        for cand in self._candidates(link):
            tail = "/" + _key(cand)
            same_name = self._by_name.get(_key(cand.rsplit("/", 1)[-1]), [])
            hits = [p for p in same_name if ("/" + _key(p)).endswith(tail)]
            if hits:
                return _shortest(hits)
        return None

    def _name(self, link: str) -> str | None:
        for cand in self._candidates(link):
            hits = self._by_name.get(_key(cand))
            if hits:
                return _shortest(hits)
        return None


def _join(folder: str, link: str) -> str | None:
    """Normalize ``folder/link``; None when ``..`` climbs above the vault root."""
    parts = [p for p in folder.split("/") if p]
    for part in link.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                return None
            parts.pop()
        else:
            parts.append(part)
    return "/".join(parts)
