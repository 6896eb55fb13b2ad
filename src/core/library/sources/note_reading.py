"""A note made ready for the reader: frontmatter dropped, wikilinks turned into links to the
sources they name (``#/sources/{id}?at=heading-slug``), headings given the chunker's anchors.

Pure functions over text; the caller supplies the vault's paths and their source ids.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import quote

from studyhall.core.library.retrieval.chunking import slugify
from studyhall.core.library.sources.note_images import embed_image, link_markdown_images

_FRONTMATTER = re.compile(r"\A---\r?\n.*?\r?\n---\r?\n", re.DOTALL)
_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_WIKILINK = re.compile(r"(!?)\[\[([^\[\]\n]+?)\]\]")


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    slug: str  # the chunker's anchor: a citation ``path#slug`` opens the reader here


def strip_frontmatter(text: str) -> str:
    return _FRONTMATTER.sub("", text, count=1)


def headings(text: str) -> list[Heading]:
    """ATX headings outside code fences, in order, slugged as the chunker slugs them (a
    repeated heading gets ``-1``, ``-2``...)."""
    out: list[Heading] = []
    used: dict[str, int] = {}
    fenced = False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
            continue
        m = None if fenced else _HEADING.match(line)
        if m is None:
            continue
        title = m.group(2)
        base = slugify(title)
        n = used.get(base, 0)
        used[base] = n + 1
        out.append(Heading(len(m.group(1)), title, base if n == 0 else f"{base}-{n}"))
    return out


def resolve_target(target: str, paths: Mapping[str, str]) -> str | None:
    """The source id a wikilink target names, by Obsidian's rules in short: the exact path
    (with or without ``.md``), else a note of that file name anywhere in the vault.
    ``paths`` maps root-relative paths to source ids."""
    wanted = target.strip().replace("\\", "/").lstrip("/")
    if not wanted:
        return None
    lower = wanted.lower()
    by_lower = {p.lower(): sid for p, sid in paths.items()}
    for candidate in (lower, f"{lower}.md", f"{lower}.markdown"):
        if candidate in by_lower:
            return by_lower[candidate]
    for path, sid in sorted(paths.items()):
        name = path.rsplit("/", 1)[-1].lower()
        if name in (lower, f"{lower}.md", f"{lower}.markdown"):
            return sid
    return None


def link_label(name: str, heading: str, alias: str = "") -> str:
    """What a wikilink reads as: its alias, else the note's name and the heading it points at
    ("Krebs cycle › Where it happens"), the note's name alone for a block ("Note#^block155"),
    never the link's ``#`` or ``^`` syntax."""
    if alias.strip():
        label = alias
    else:
        section = heading.rsplit("#", 1)[-1].strip()
        label = name.strip() or ("this note" if section.startswith("^") else section)
        if section and not section.startswith("^") and name.strip():
            label = f"{name.strip()} › {section}"
    return label.strip().replace("]", "").replace("[", "")


def link_wikilinks(text: str, paths: Mapping[str, str], self_id: str, *,
                   note_path: str = "", files: Sequence[str] = ()) -> str:
    """Replace ``[[Target#Heading|Alias]]`` by a Markdown link into the reader (plain text
    when the target was not imported); an image embed (or ``![](rel.png)``) found among the
    vault's ``files`` becomes an image from the reader's image route; any other embed a quiet
    mention, since the reader never loads files a note merely names. Code fences are left alone."""

    def one(m: re.Match[str]) -> str:
        embed, inner = m.group(1), m.group(2)
        image = embed_image(inner, note_path, files, self_id) if embed else None
        if image is not None:
            return image
        target, _, alias = inner.partition("|")
        name, _, heading = target.partition("#")
        label = link_label(name, heading, alias)
        sid = self_id if not name.strip() else resolve_target(name, paths)
        if embed:
            return f"*(embedded: {label})*" if sid is None else f"[↪ {label}](#/sources/{sid})"
        if sid is None:
            return label
        section = heading.split("^")[0]  # a block's link opens its note
        at = f"?at={quote(slugify(section))}" if section.strip() else ""
        return f"[{label}](#/sources/{sid}{at})"

    out: list[str] = []
    fenced = False
    for line in text.split("\n"):
        if _FENCE.match(line):
            fenced = not fenced
        if fenced or _FENCE.match(line):
            out.append(line)
        else:
            out.append(_WIKILINK.sub(one, link_markdown_images(line, note_path, files, self_id)))
    return "\n".join(out)
