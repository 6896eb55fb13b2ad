"""One Markdown note parsed the way Obsidian reads it: sections, blocks, links, tags, block ids.

Block structure comes from markdown-it (so code blocks, lists and quotes are recognised as a
CommonMark reader sees them); inline syntax is scanned on the raw lines with code masked, so
every hit keeps its line number and every quote stays verbatim.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any, Literal

from studyhall.core.library.sources.notes.frontmatter import note_meta, split_frontmatter
from studyhall.core.library.sources.notes.inline import (
    InlineLink,
    block_id,
    find_links,
    find_tags,
    mask_code_spans,
    mask_links,
)
from studyhall.core.library.sources.notes.markup_scan import MAX_MARKUP

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

BlockKind = Literal["heading", "paragraph", "list_item", "quote", "table"]

_CODE_TOKENS = {"fence", "code_block", "html_block"}


@cache
def _markdown() -> MarkdownIt:
    # Built on first parse: importing markdown-it costs ~20 ms of the app's start-up otherwise.
    from markdown_it import MarkdownIt

    # Block structure only: inline syntax is scanned on the raw lines (``_inline``), so the
    # core rules that parse every paragraph's inline tokens would be a third of the parse, unused.
    return MarkdownIt("commonmark").enable("table").disable(["inline", "text_join"])


@dataclass(frozen=True)
class NoteLink:
    kind: Literal["wiki", "markdown"]
    embed: bool
    target: str
    subpath: str
    alias: str | None
    line: int  # 0-based line of the note text the link starts on
    raw: str


@dataclass(frozen=True)
class Block:
    """A block of prose; ``lines`` are (line number, text after its Markdown prefix)."""

    kind: BlockKind
    start: int
    end: int  # exclusive
    level: int  # heading level, or list depth
    lines: tuple[tuple[int, str, bool], ...]  # (line, content, joins the previous line)
    group: int = -1  # for list items: which list (items of one list share it)
    ordered: bool = False  # for list items: a numbered list


@dataclass(frozen=True)
class Section:
    """A heading and the lines up to the next heading; section 0 is the preamble."""

    index: int
    heading: str | None  # the heading text as written (None for the preamble)
    level: int  # 0 for the preamble
    parent: int | None
    start: int
    end: int
    anchor: str  # Obsidian subpath of this heading ("H1#H2"); "" for the preamble


@dataclass(frozen=True)
class NoteDoc:
    path: str  # vault-relative, "/"-separated
    title: str
    lines: tuple[str, ...]
    body_start: int
    tags: tuple[str, ...]
    aliases: tuple[str, ...]
    sections: tuple[Section, ...]
    blocks: tuple[Block, ...]
    links: tuple[NoteLink, ...]
    block_ids: Mapping[str, int] = field(default_factory=dict)  # block id -> line
    code_lines: frozenset[int] = frozenset()

    def section_of(self, line: int) -> Section:
        """The last section starting at or before ``line`` (the preamble for any line before
        it); by bisection, as a caller may ask for every block of a note of many headings."""
        i = bisect_right(self._section_starts, line)
        return self.sections[i - 1] if i else self.sections[0]

    @cached_property
    def _section_starts(self) -> list[int]:
        return [section.start for section in self.sections]


def parse_note(path: str, text: str, meta: Mapping[str, Any] | None = None) -> NoteDoc:
    """Parse a note. ``meta`` is its frontmatter already loaded by a safe YAML reader."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    lines = text.split("\n")
    front = split_frontmatter(text)
    info = note_meta(meta if front.yaml is not None else None)
    # Blank the frontmatter so markdown-it's line numbers are the note's line numbers.
    body = "\n".join([""] * front.body_start + lines[front.body_start :])
    tokens = _markdown().parse(body)

    code_lines: set[int] = set()
    for tok in tokens:
        if tok.type in _CODE_TOKENS and tok.map:
            code_lines.update(range(tok.map[0], tok.map[1]))
    blocks, headings = _blocks(tokens, lines)
    links, tags, block_ids = _inline(lines, front.body_start, code_lines)
    stem = path.rsplit("/", 1)[-1]
    stem = stem[: stem.rfind(".")] if "." in stem else stem
    return NoteDoc(
        path=path,
        title=info.title or stem,
        lines=tuple(lines),
        body_start=front.body_start,
        tags=tuple(dict.fromkeys([*info.tags, *tags])),
        aliases=info.aliases,
        sections=_sections(headings, front.body_start, len(lines)),
        blocks=tuple(blocks),
        links=tuple(links),
        block_ids=block_ids,
        code_lines=frozenset(code_lines),
    )


def _blocks(
    tokens: list[Token], lines: list[str]
) -> tuple[list[Block], list[tuple[int, int, str]]]:
    blocks: list[Block] = []
    headings: list[tuple[int, int, str]] = []  # (line, level, text)
    lists: list[tuple[int, bool]] = []  # open lists: (token index, ordered)
    quote_depth = 0
    in_table = False
    for i, tok in enumerate(tokens):
        list_depth = len(lists)
        if tok.type in ("bullet_list_open", "ordered_list_open"):
            lists.append((i, tok.type == "ordered_list_open"))
        elif tok.type in ("bullet_list_close", "ordered_list_close"):
            lists.pop()
        elif tok.type == "blockquote_open":
            quote_depth += 1
        elif tok.type == "blockquote_close":
            quote_depth -= 1
        elif tok.type == "table_open":
            in_table = True
            if tok.map:
                cells = tuple((n, lines[n].strip(), False) for n in range(*tok.map))
                blocks.append(Block("table", tok.map[0], tok.map[1], 0, cells))
        elif tok.type == "table_close":
            in_table = False
        elif tok.type == "heading_open" and tok.map:
            n = tok.map[0]
            content = tokens[i + 1].content if i + 1 < len(tokens) else ""
            level = int(tok.tag[1:])
            headings.append((n, level, content.strip()))
            blocks.append(Block("heading", n, tok.map[1], level, ((n, content.strip(), False),)))
        elif tok.type == "paragraph_open" and tok.map and not in_table:
            kind: BlockKind = "quote" if quote_depth else "list_item" if list_depth else "paragraph"
            prose = tuple(_content_lines(lines, tok.map[0], tok.map[1], quote_depth))
            group, ordered = lists[-1] if lists else (-1, False)
            blocks.append(Block(kind, tok.map[0], tok.map[1], list_depth, prose, group, ordered))
    return blocks, headings


def _content_lines(
    lines: list[str], start: int, end: int, quote_depth: int
) -> list[tuple[int, str, bool]]:
    """Each line's prose without its Markdown prefix, and whether it continues the previous
    line with only whitespace between them (so a sentence may span the two verbatim)."""
    out: list[tuple[int, str, bool]] = []
    for n in range(start, end):
        raw = lines[n]
        content = raw.lstrip()
        prefix_is_space = True
        depth = quote_depth
        while depth and content.startswith(">"):
            content = content[1:].lstrip()
            depth -= 1
            prefix_is_space = False
        if n == start:
            content = _strip_list_marker(content)
        out.append((n, content.rstrip(), n > start and prefix_is_space))
    return out


def _strip_list_marker(content: str) -> str:
    for marker in ("- [ ] ", "- [x] ", "- [X] ", "* [ ] ", "* [x] ", "- ", "* ", "+ "):
        if content.startswith(marker):
            return content[len(marker) :].lstrip()
    digits = len(content) - len(content.lstrip("0123456789"))
    if 0 < digits <= 9 and content[digits : digits + 2] in (". ", ") "):
        return content[digits + 2 :].lstrip()
    return content


def _inline(
    lines: list[str], body_start: int, code_lines: set[int]
) -> tuple[list[NoteLink], list[str], dict[str, int]]:
    """Scan runs of consecutive prose lines: a code span may wrap a line, never a blank one."""
    links: list[NoteLink] = []
    tags: list[str] = []
    block_ids: dict[str, int] = {}
    run: list[int] = []

    def flush() -> None:
        if not run:
            return
        # A line is read for links, tags and block ids in its first MAX_MARKUP characters
        # (20,000: a paragraph of ~3,000 words); the rest of a longer one is plain text.
        scanned = [lines[n][:MAX_MARKUP] for n in run]
        text = mask_code_spans("\n".join(scanned))
        starts = [0]
        for line in scanned[:-1]:
            starts.append(starts[-1] + len(line) + 1)
        found = find_links(text)
        for link in found:
            links.append(_at_line(link, run, starts))
        for tag, _ in find_tags(mask_links(text, found)):
            tags.append(tag)
        for n, masked in zip(run, text.split("\n")):
            bid = block_id(masked)
            if bid is not None:
                block_ids.setdefault(bid, n)
        run.clear()

    for n in range(body_start, len(lines)):
        if n in code_lines or not lines[n].strip():
            flush()
        else:
            run.append(n)
    flush()
    return links, list(dict.fromkeys(tags)), block_ids


def _at_line(link: InlineLink, run: list[int], starts: list[int]) -> NoteLink:
    idx = bisect_right(starts, link.start) - 1  # a walk from the top was ~n² on many lines
    return NoteLink(
        link.kind, link.embed, link.target, link.subpath, link.alias, run[idx], link.raw
    )


def _sections(
    headings: list[tuple[int, int, str]], body_start: int, total: int
) -> tuple[Section, ...]:
    first = headings[0][0] if headings else total
    sections = [Section(0, None, 0, None, body_start, first, "")]
    stack: list[int] = []  # indices of open ancestor sections
    seen: dict[str, int] = {}
    for k, (line, level, text) in enumerate(headings):
        end = headings[k + 1][0] if k + 1 < len(headings) else total
        while stack and sections[stack[-1]].level >= level:
            stack.pop()
        parent = stack[-1] if stack else 0
        path = "#".join([*(sections[s].heading or "" for s in stack), text])
        count = seen.get(path.lower(), 0) + 1
        seen[path.lower()] = count
        anchor = path if count == 1 else f"{path}~{count}"
        sections.append(Section(len(sections), text, level, parent, line, end, anchor))
        stack.append(len(sections) - 1)
    return tuple(sections)
