"""The links between notes as a model-free source: one view per note, its links made edges.

Once every note's own nodes are merged, each note's resolved links become ``supports`` edges
between the nodes the merger accepted evidence for (``sources.note_links``). A note's link
edges form one view under the vault's links source, so they are re-made exactly when a link or
one of its ends changes; ``LinkExtractor`` proposes exactly those edges for a batch of views.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from studyhall.core.library.extraction.batching import Batch
from studyhall.core.library.extraction.coverage import View, make_view
from studyhall.core.library.extraction.evidence import normalize_ws
from studyhall.core.library.extraction.findings import EdgeFinding, Extraction, ExtractorOutput
from studyhall.core.library.graph.snapshot import SnapshotNode
from studyhall.core.library.sources.note_links import (
    EvidenceIndex,
    NoteRef,
    ResolvedLink,
    link_edges,
)
from studyhall.core.library.sources.notes.views import links_message_id

LINKS_LABEL = "note-links"


@dataclass(frozen=True)
class LinkingNote:
    """A note whose own nodes are merged: its links and the section views evidence cites."""

    ref: NoteRef
    resolved: Sequence[ResolvedLink]
    views: Sequence[View]


class LinkExtractor:
    """Proposes the edges each link view records (each once per batch)."""

    def __init__(self, pairs: Mapping[str, Sequence[tuple[str, str, int]]]) -> None:
        self._pairs = pairs  # link view message id -> (from node, to node, links) per edge

    async def extract(self, batch: Batch) -> Extraction:
        weights: dict[tuple[str, str], int] = {}
        for view in batch.views:
            for a, b, links in self._pairs.get(view.message_id, ()):
                weights[(a, b)] = weights.get((a, b), 0) + links  # two notes of one title
        edges = tuple(
            EdgeFinding.model_validate({"from": a, "to": b, "kind": "supports"}).weighed(n)
            for (a, b), n in weights.items()
        )
        return Extraction(ExtractorOutput(propositions=(), edges=edges))


def note_link_views(
    notes: Sequence[LinkingNote], nodes: Iterable[SnapshotNode], source_id: str, at: datetime
) -> tuple[list[View], LinkExtractor]:
    """Every note's link view (notes whose links make no edge have none) and the extractor
    that turns them into edges. ``nodes`` is the graph after the notes' own merges."""
    current = {v.message_id: normalize_ws("\n".join(v.lines)) for n in notes for v in n.views}
    evidence = EvidenceIndex(
        (
            (node.id, e.message_id, e.quote)
            for node in nodes
            for e in node.evidence
            if e.message_id in current
        ),
        current,
    )
    by_path = {note.ref.doc.path: note.ref for note in notes}
    views: list[View] = []
    pairs: dict[str, list[tuple[str, str, int]]] = {}
    for note in notes:
        found = link_edges(note.ref, note.resolved, by_path, evidence)
        if not found:
            continue
        message_id = links_message_id(note.ref.source_id)
        views.append(make_view(source_id, message_id, LINKS_LABEL, [e.line for e in found], at))
        pairs[message_id] = [(e.source, e.target, e.links) for e in found]
    return views, LinkExtractor(pairs)
