"""Links between notes: which ones resolve, which are broken, and the edges they become.

Resolution runs over the whole vault's file list (``VaultIndex``). Edges are made once every
note's own propositions are merged, so an edge never depends on import order: a link
of note A to note B becomes ``A's topic --supports--> B's topic`` (wherever in B it points:
a heading is a section of B's topic, not a node), one edge per linked pair.
The nodes are found through the evidence the merger accepted (never guessed), and a note's link
edges form one view (``<source>@links``) whose lines name both ends, so the link edges are
re-made exactly when a link or one of its ends changes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from studyhall.core.library.extraction.evidence import normalize_ws
from studyhall.core.library.extraction.structural_extractor import SectionIndex
from studyhall.core.library.sources.heading_lookup import HeadingLookup
from studyhall.core.library.sources.notes.document import NoteDoc, NoteLink, Section
from studyhall.core.library.sources.notes.resolve import Resolution, VaultIndex, is_note
from studyhall.core.library.sources.notes.views import section_message_id, title_line


@dataclass(frozen=True)
class ResolvedLink:
    link: NoteLink
    resolution: Resolution


def resolve_links(doc: NoteDoc, index: VaultIndex) -> list[ResolvedLink]:
    """Every link of a note except links to itself, each with how it resolved."""
    out: list[ResolvedLink] = []
    for link in doc.links:
        res = index.resolve(link.target, doc.path, markdown=link.kind == "markdown")
        if res.how == "self" or (res.target == doc.path and link.target):
            continue
        out.append(ResolvedLink(link, res))
    return out


def link_report(resolved: Sequence[ResolvedLink]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(resolved target paths, broken links as written), each unique, in note order."""
    links = dict.fromkeys(r.resolution.target for r in resolved if r.resolution.target)
    broken = dict.fromkeys(
        r.link.target + (f"#{r.link.subpath}" if r.link.subpath else "")
        for r in resolved
        if not r.resolution.ok
    )
    return tuple(t for t in links if t), tuple(broken)


class EvidenceIndex:
    """Which nodes the graph holds evidence for, per message (a note section), with the quote.
    Only quotes still present in the section's current text count (edited-away lines do not)."""

    def __init__(self, entries: Iterable[tuple[str, str, str]], current: Mapping[str, str]) -> None:
        self._by_message: dict[str, list[tuple[str, str]]] = {}
        self._heads: dict[str, dict[str, str]] = {}  # message -> quote -> first node quoting it
        for node_id, message_id, quote in entries:
            text = current.get(message_id)
            if text is not None and normalize_ws(quote) in text:
                self._by_message.setdefault(message_id, []).append((node_id, normalize_ws(quote)))

    def quoting(self, message_id: str, fragment: str) -> list[str]:
        """Nodes whose quote contains ``fragment`` (e.g. the link as written)."""
        want = normalize_ws(fragment)
        return list(dict.fromkeys(n for n, q in self._by_message.get(message_id, []) if want in q))

    def within(self, message_id: str, text: str) -> list[str]:
        """Nodes whose quote lies inside ``text`` (e.g. one line of the note)."""
        hay = normalize_ws(text)
        found = self._by_message.get(message_id, [])
        return list(dict.fromkeys(n for n, q in found if q and q in hay))

    def head(self, message_id: str, quote: str) -> str | None:
        """The node quoting exactly ``quote`` (a heading), else the section's first node."""
        found = self._by_message.get(message_id, [])
        if not found:
            return None
        # Indexed on first use: every link into a section asks, and a section may hold 20k
        # quotes (scanning them per link was quadratic).
        firsts = self._heads.get(message_id)
        if firsts is None:
            firsts = self._heads[message_id] = {}
            for node, q in found:
                firsts.setdefault(q, node)
        return firsts.get(normalize_ws(quote), found[0][0])


@dataclass(frozen=True)
class NoteRef:
    source_id: str
    doc: NoteDoc

    @cached_property
    def sections(self) -> SectionIndex:
        """Built on first use, once per note (a link asks it for its target's heading)."""
        return SectionIndex(self.doc)

    @cached_property
    def headings(self) -> HeadingLookup:
        """Built on first use, once per note (every link into it looks its subpath up)."""
        return HeadingLookup(self.doc)


def _section_head(ref: NoteRef, section: Section, evidence: EvidenceIndex) -> str | None:
    quote = title_line(ref.doc) if section.index == 0 else ref.sections.heading_quote(section)
    node = evidence.head(section_message_id(ref.source_id, section), quote)
    if node is None and section.index != 0:
        root = ref.doc.sections[0]
        node = evidence.head(section_message_id(ref.source_id, root), title_line(ref.doc))
    return node


def _target_node(ref: NoteRef, subpath: str, evidence: EvidenceIndex) -> str | None:
    doc = ref.doc
    if subpath.startswith("^"):
        line = doc.block_ids.get(subpath[1:])
        if line is not None:
            section = ref.headings.section_at(line)
            hits = evidence.within(section_message_id(ref.source_id, section), doc.lines[line])
            if hits:
                return hits[0]
            return _section_head(ref, section, evidence)
        return _section_head(ref, doc.sections[0], evidence)
    section = ref.headings.find(subpath) or doc.sections[0]
    return _section_head(ref, section, evidence)


@dataclass(frozen=True)
class LinkEdge:
    source: str
    target: str
    line: str  # the view line that records it
    links: int = 1  # how many links of the note join the pair (the edge's weight)


def link_edges(
    ref: NoteRef,
    resolved: Sequence[ResolvedLink],
    notes: Mapping[str, NoteRef],
    evidence: EvidenceIndex,
) -> list[LinkEdge]:
    """The ``supports`` edges a note's resolved links to other notes make (from the note's
    topic), in note order."""
    out: dict[tuple[str, str], LinkEdge] = {}
    counts: dict[tuple[str, str], int] = {}
    doc = ref.doc
    # Concepts, not lines: a link joins the note's topic to the note (or heading) it names.
    topic = _section_head(ref, doc.sections[0], evidence)
    for item in resolved:
        target_path = item.resolution.target
        if target_path is None or not is_note(target_path) or target_path not in notes:
            continue  # attachments and notes that were not imported make no edge
        link = item.link
        source = topic
        target = _target_node(notes[target_path], link.subpath, evidence)
        if source is None or target is None or source == target:
            continue
        where = f"{target_path}#{link.subpath}" if link.subpath else target_path
        # No line number: moving a link within its note does not make its edge new.
        line = f"{doc.path}: {link.raw} -> {where} | {source} supports {target}"
        out.setdefault((source, target), LinkEdge(source, target, line))
        counts[(source, target)] = counts.get((source, target), 0) + 1
    # The count is on the first link's line: a link added or removed re-makes (re-weighs) it.
    return [LinkEdge(e.source, e.target, f"{e.line} x{counts[k]}", counts[k])
            for k, e in out.items()]
