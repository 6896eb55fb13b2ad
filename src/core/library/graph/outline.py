"""A note topic's outline, read from its evidence: the sections its headings open.

A note is one node; each of its sections' views quotes the section's heading first and then
its sentences on that node (``structural_extractor``), all cited with the section's message id
(``<source>#<anchor>``). Grouping the evidence by that id gives the outline the dock lists —
heading, level, the anchor to deep-link, how much evidence each section holds — with no record
of its own (derived, like everything but the ledgers). Evidence outlives its heading (a heading
renamed or dropped in the note), so the sources index's record of each note's sections now
(``Source.sections``) says which of the cited ones the outline still lists.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass

from studyhall.core.contracts.sources import Source
from studyhall.core.library.graph.view import SnapshotNode
from studyhall.core.library.sources.notes.views import LINKS_SUFFIX, NOTE_LABEL

# Sources whose views are a note's sections: notes, and lectures and PDFs made topics by an
# import (core/library/imports/lectures.py: a heading per key moment or page).
_NOTE_PREFIX = (NOTE_LABEL + "_", "transcript_", "pdf_")
_SETEXT_UNDERLINE = re.compile(r"\s+(=+|-+)\s*$")

# Per source id, the anchors of its sections now; a source it does not name is not known, and
# every section its evidence cites is listed (as before sources recorded their sections).
CurrentSections = Mapping[str, Collection[str]]


def current_sections(sources: Iterable[Source]) -> dict[str, tuple[str, ...]]:
    """What the sources index knows of its sources' sections now (``Source.sections``): as
    recorded, no copy (a graph search reads it for every note)."""
    return {s.id: s.sections for s in sources if s.sections is not None}


def node_sections_now(node: SnapshotNode, source: Callable[[str], Source | None],
                      ) -> dict[str, tuple[str, ...]]:
    """The sections now of the notes whose sections the node's evidence cites, each record read
    with ``source`` (a sources store's ``get``): one node's outline reads a few, not all."""
    cited = {row[0] for row in node.rows()[0] if row[0].startswith(_NOTE_PREFIX)}
    return current_sections(found for found in map(source, sorted(cited)) if found is not None)


@dataclass(frozen=True)
class OutlineSection:
    source_id: str
    message_id: str  # the section's view: what its evidence cites
    anchor: str  # the Obsidian subpath ("H1#H2"); "" for the note's title and preamble
    heading: str  # as written, without its leading '#'s
    level: int  # 0 for the title, else the heading's level (its depth when not an ATX heading)
    evidence: int  # quotes under the heading (not counting the heading itself)


def node_outline(node: SnapshotNode, current: CurrentSections | None = None,
                 ) -> list[OutlineSection]:
    """The node's sections, one per note section view its evidence cites, in first-cited
    order (a note's own order on a model-free import) — but not a section ``current`` says its
    note no longer has (None: no section is known gone)."""
    heads: dict[str, list[str]] = {}  # message id -> [source id, first quote]
    counts: dict[str, int] = {}
    for source_id, message_id, quote, *_ in node.rows()[0]:
        if not source_id.startswith(_NOTE_PREFIX) or message_id.endswith(LINKS_SUFFIX):
            continue
        if not message_id.startswith(source_id + "#"):
            continue
        if message_id in heads:
            counts[message_id] += 1
        else:
            heads[message_id] = [source_id, quote]
            counts[message_id] = 0
    sections = [_section(source_id, message_id, quote, counts[message_id])
                for message_id, (source_id, quote) in heads.items()]
    if not current:
        return sections
    # A heading since renamed or dropped keeps its evidence on the node, not its place here.
    return [s for s in sections if not section_gone(s.source_id, s.message_id, current)]


def section_gone(source_id: str, message_id: str, current: CurrentSections) -> bool:
    """Whether a quote cites a note section its note no longer has (renamed or dropped); a
    quote of no note section, or of a note whose sections are not known, is never gone."""
    if not source_id.startswith(_NOTE_PREFIX) or not message_id.startswith(source_id + "#"):
        return False
    recorded = current.get(source_id)
    return recorded is not None and message_id[len(source_id) + 1:] not in recorded


def _section(source_id: str, message_id: str, quote: str, evidence: int) -> OutlineSection:
    anchor = message_id[len(source_id) + 1:]
    stripped = quote.strip()
    hashes = len(stripped) - len(stripped.lstrip("#"))
    if not anchor:
        level = 0
    elif 1 <= hashes <= 6:
        level = hashes
    else:  # a setext heading (its underline quoted with it), or a heading not quoted first
        level = anchor.count("#") + 1
    heading = stripped.lstrip("#").strip() if hashes else _SETEXT_UNDERLINE.sub("", stripped)
    return OutlineSection(source_id, message_id, anchor, heading, level, evidence)


MEANING_CHARS = 600  # about the encoder's 128-token window: more would be cut anyway


def meaning_text(node: SnapshotNode, current: CurrentSections | None = None) -> str:
    """What a node's vector is made of: its text and, for a note's topic, its sections' headings
    — a title alone ("Backlinks") says little of what the note holds, so notes about one thing
    would not cluster into a region, nor a search for what a section covers find its note.
    Headings the note no longer has (``current``) are not part of it."""
    headings = list(dict.fromkeys(s.heading for s in node_outline(node, current)
                                  if s.level > 0))
    if not headings:
        return node.text
    return f"{node.text}: {'; '.join(headings)}"[:MEANING_CHARS]
