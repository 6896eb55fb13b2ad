"""What an export reads: the graph with the learner's evidence in it, the scope's nodes, and how
each source is shown (its path and a ``file://`` link for imported notes). Behind the
``Learner``'s exports, so ``studyhall export`` and ``GET /api/export/anki`` give the same deck.
The files are written by the ``DeckWriter`` / ``VaultWriter`` ports (``adapters/export``)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from studyhall.core.contracts.artifacts import Scope
from studyhall.core.contracts.scope_text import parse_scope, scope_text
from studyhall.core.library.export.anki_notes import AnkiNote, SourceRef, anki_notes
from studyhall.core.library.export.scope import nodes_in
from studyhall.core.library.export.vault import TopicState, VaultReport, vault_notes
from studyhall.core.library.graph.view import GraphSnapshot
from studyhall.core.ports.exports import VaultWriter
from studyhall.core.ports.storage import SourceStore
from studyhall.server.runtime.learner.ledgers import LearnerLedgers

DECK = "Studyhall"


def source_refs(store: SourceStore, ids: Iterable[str]) -> dict[str, SourceRef]:
    refs: dict[str, SourceRef] = {}
    for source_id in set(ids):
        source = store.get(source_id)
        if source is None:  # a session, not an imported file
            refs[source_id] = SourceRef(f"session {source_id}")
            continue
        path = Path(source.root) / source.path
        refs[source_id] = SourceRef(source.path, path.as_uri() if path.is_absolute() else None)
    return refs


def deck_name(snapshot: GraphSnapshot, scope: Scope,
              refs: dict[str, SourceRef] | None = None) -> str:
    """``Studyhall`` for the whole graph, ``Studyhall::<topic>`` for a part of it."""
    if scope.type == "graph":
        return DECK
    if scope.type == "cluster":
        cluster = next((c for c in snapshot.clusters if c.id == scope.id), None)
        label = (cluster.label if cluster is not None else None) or scope.id or ""
        return f"{DECK}::{label.replace('::', ':')}"
    if scope.type == "source" and refs and scope.id in refs:
        return f"{DECK}::{refs[scope.id].title.replace('::', ':')}"
    if scope.type == "topic" and (topic := snapshot.node(scope.id or "")) is not None:
        return f"{DECK}::{topic.text[:80].replace('::', ':')}"
    return f"{DECK}::{scope_text(scope).replace('::', ':')}"


def anki_export(ledgers: LearnerLedgers, sources: SourceStore, base: GraphSnapshot | None,
                scope_text: str | None) -> tuple[list[AnkiNote], str]:
    """The notes of the scope and the deck they go in (``InvalidInput`` / ``NotFound`` for a
    bad scope)."""
    scope = parse_scope(scope_text)
    snapshot = ledgers.graph_with_evidence(base)
    nodes = nodes_in(snapshot, scope)
    refs = source_refs(sources, (s for n in nodes for s in n.sources))
    held = ledgers.out_of_review(snapshot)  # out of review here: suspended in Anki too
    notes = [n._replace(suspended=True) if n.key.split("\x1f")[0] in held else n
             for n in anki_notes(snapshot, nodes, refs)]
    return notes, deck_name(snapshot, scope, refs)


def topic_states(ledgers: LearnerLedgers, snapshot: GraphSnapshot) -> dict[str, TopicState]:
    model = ledgers.model(snapshot)
    out = {}
    for node in snapshot.nodes:
        card = model.card(node.id)
        out[node.id] = TopicState(model.score(node.id).value, node.state,
                                  card.due if card.reviews else None)
    return out


def markdown_export(ledgers: LearnerLedgers, sources: SourceStore, base: GraphSnapshot | None,
                    writer: VaultWriter, folder: str, *, force: bool = False) -> VaultReport:
    """The graph's vault notes written into ``folder`` by ``writer`` (``InvalidInput`` for a
    folder that holds the learner's own notes, unless ``force``)."""
    if not force:
        writer.refuse_unsafe(folder, (s.root for s in sources.list()))
    snapshot = ledgers.graph_with_evidence(base)
    titles = {sid: ref.title for sid, ref in
              source_refs(sources, (s for n in snapshot.nodes for s in n.sources)).items()}
    return writer.write(folder, vault_notes(snapshot, topic_states(ledgers, snapshot), titles))
