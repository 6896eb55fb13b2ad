"""Inline Obsidian syntax inside one block of text: code spans, wikilinks, Markdown links, tags.

Everything here works on a text and character offsets, so the caller can map a hit back to its
line. Code spans are masked first (same length, blanks) because a link inside code is not a link.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from typing import Literal
from urllib.parse import unquote

LinkKind = Literal["wiki", "markdown"]


@dataclass(frozen=True)
class InlineLink:
    kind: LinkKind
    embed: bool
    target: str  # the link path as written (decoded); "" means this very note
    subpath: str  # "Heading", "Heading#Sub", "^blockid" or ""
    alias: str | None
    start: int  # offsets of the whole link in the scanned text
    end: int
    raw: str


_BACKTICKS = re.compile(r"`+")
_WIKI = re.compile(r"(!?)\[\[((?:[^\[\]\n]|\\\])+?)\]\]")
# The link text is one pass (a nested "[...]" is one step, so nothing to give back); the spaces
# around the destination and title are taken whole (``*+``, ``++``: giving some back could only
# let a title start there, which the look-behind allows when the destination is empty), so a
# run of spaces after "(" costs one pass, not one per split (that was ~n² on "[a](" + spaces).
_MD_LINK = re.compile(
    r"(!?)\[((?:[^\[\]\n]|\[[^\[\]\n]*\])*)\]"  # [text] (one level of nested brackets)
    r"\(\s*+(<[^<>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)"  # (destination
    r"(?:(?:\s++|(?<=\s))(?:\"[^\"\n]*\"|'[^'\n]*'))?+\s*+\)"  # optional "title")
)
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
# Obsidian tags: after a line start or whitespace; letters, digits, _ - / ; not only digits.
_TAG = re.compile(r"(?:(?<=\s)|^)#([\w/-]+)", re.UNICODE | re.MULTILINE)
_BLOCK_ID = re.compile(r"(?:^|\s)\^([A-Za-z0-9-]+)\s*$")


def mask_code_spans(text: str) -> str:
    """Blank out inline code spans (CommonMark: a backtick run closed by a run of the same
    length). An unmatched run is literal text. Escaped backticks do not open a span."""
    if "`" not in text:
        return text
    out = list(text)
    runs = _runs_by_length(text)
    pos = 0
    while True:
        m = _BACKTICKS.search(text, pos)
        if m is None:
            break
        if m.start() > 0 and _escaped(text, m.start()):
            pos = m.start() + 1
            continue
        run = m.group(0)
        close = _find_closing_run(runs, m.end(), len(run))
        if close is None:
            pos = m.end()
            continue
        for i in range(m.start(), close):
            if out[i] != "\n":
                out[i] = " "
        pos = close
    return "".join(out)


def _escaped(text: str, i: int) -> bool:
    slashes = 0
    while i - slashes - 1 >= 0 and text[i - slashes - 1] == "\\":
        slashes += 1
    return slashes % 2 == 1


def _runs_by_length(text: str) -> dict[int, list[int]]:
    """Where every backtick run starts, by its length (ascending starts)."""
    starts: dict[int, list[int]] = {}
    for m in _BACKTICKS.finditer(text):
        starts.setdefault(m.end() - m.start(), []).append(m.start())
    return starts


def _find_closing_run(runs: dict[int, list[int]], start: int, length: int) -> int | None:
    # By bisection: scanning on from every opener cost a pass per run length that never
    # closes (~n^1.5 on "` `` ``` ...").
    starts = runs.get(length, [])
    i = bisect_left(starts, start)
    return starts[i] + length if i < len(starts) else None


def find_links(text: str) -> list[InlineLink]:
    """Wikilinks (``[[a]]``, ``[[a|b]]``, ``[[a#h]]``, ``[[a#^id]]``, embeds ``![[a]]``) and
    Markdown links to local files, in text order. ``text`` must already be code-masked."""
    links: list[InlineLink] = []
    blanked = list(text)
    for m in _WIKI.finditer(text):
        links.append(_wikilink(m))
        for i in range(m.start(), m.end()):
            blanked[i] = " "
    rest = "".join(blanked)
    for m in _MD_LINK.finditer(rest):
        link = _markdown_link(m)
        if link is not None:
            links.append(link)
    links.sort(key=lambda link: link.start)
    return links


def _wikilink(m: re.Match[str]) -> InlineLink:
    inner = m.group(2).replace("\\|", "|")  # tables escape the alias pipe
    target_part, _, alias = inner.partition("|")
    path, _, subpath = target_part.partition("#")
    return InlineLink(
        kind="wiki",
        embed=m.group(1) == "!",
        target=path.strip(),
        subpath=subpath.strip(),
        alias=alias.strip() or None if "|" in inner else None,
        start=m.start(),
        end=m.end(),
        raw=m.group(0),
    )


def _markdown_link(m: re.Match[str]) -> InlineLink | None:
    dest = m.group(3).strip()
    if dest.startswith("<") and dest.endswith(">"):
        dest = dest[1:-1].strip()
    if not dest or _SCHEME.match(dest) or dest.startswith("//"):
        return None  # external (http:, mailto:, obsidian:, ...) or empty: not a note link
    path, _, subpath = dest.partition("#")
    return InlineLink(
        kind="markdown",
        embed=m.group(1) == "!",
        target=unquote(path).strip(),
        subpath=unquote(subpath).strip(),
        alias=m.group(2).strip() or None,
        start=m.start(),
        end=m.end(),
        raw=m.group(0),
    )


def mask_links(text: str, links: list[InlineLink]) -> str:
    out = list(text)
    for link in links:
        for i in range(link.start, link.end):
            if out[i] != "\n":
                out[i] = " "
    return "".join(out)


def find_tags(text: str) -> list[tuple[str, int]]:
    """``(tag, offset)`` for every tag in text that is already code- and link-masked."""
    found: list[tuple[str, int]] = []
    for m in _TAG.finditer(text):
        tag = m.group(1).rstrip("/")
        if tag and not all(c.isdigit() or c in "/_-" for c in tag):
            found.append((tag, m.start()))
    return found


def block_id(line: str) -> str | None:
    """The ``^blockid`` that ends a line, if any."""
    m = _BLOCK_ID.search(line)
    return m.group(1) if m else None
