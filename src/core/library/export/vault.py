"""The graph as a folder of Markdown notes (an Obsidian vault): one note per topic (node) with
its text, evidence quotes and ``[[wikilinks]]`` to the topics its edges join, under a
frontmatter block (mastery, state, next review) marked ``studyhall: export``.

Pure: ``vault_notes`` returns file name -> content; the runtime compares and writes. Nothing
in a note depends on the time of the export, so an unchanged graph gives identical bytes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

from studyhall.core.library.export.filenames import note_names
from studyhall.core.library.export.marker import MARK_KEY, MARK_VALUE
from studyhall.core.library.graph.view import GraphSnapshot, SnapshotNode

# How an edge reads from each end: (from the edge's source, from its target).
_RELATIONS = {"follows": ("Leads to", "Builds on"), "supports": ("Supports", "Supported by")}


@dataclass(frozen=True)
class VaultReport:
    """What one Markdown export did to its folder."""

    notes: int
    written: int
    unchanged: int
    removed: int


class TopicState(NamedTuple):
    """The learner model's view of a topic at export time."""

    mastery: float | None
    state: str
    next_review: datetime | None  # None: never reviewed (a new card is due whenever)


def _yaml(value: object) -> str:
    """A YAML scalar or flow list; JSON's strings and numbers are valid YAML."""
    return json.dumps(value, ensure_ascii=False)


def _frontmatter(node: SnapshotNode, topic: TopicState, cluster: str | None,
                 sources: Sequence[str]) -> list[str]:
    mastery = None if topic.mastery is None else round(topic.mastery, 3)
    due = topic.next_review.isoformat() if topic.next_review is not None else None
    return ["---", f"{MARK_KEY}: {MARK_VALUE}", f"id: {_yaml(node.id)}",
            f"state: {_yaml(topic.state)}", f"mastery: {_yaml(mastery)}",
            f"next_review: {_yaml(due)}", f"cluster: {_yaml(cluster)}",
            f"sources: {_yaml(list(sources))}", "---"]


def _quote(text: str) -> list[str]:
    return [f"> {line}".rstrip() for line in text.strip().splitlines()] or [">"]


def topic_note(node: SnapshotNode, topic: TopicState, cluster: str | None,
               source_titles: Mapping[str, str],
               related: Sequence[tuple[str, str]]) -> str:
    """One topic's note; ``related``: (relation label, link target stem), in order."""
    sources = [source_titles.get(s, s) for s in node.sources]
    lines = _frontmatter(node, topic, cluster, sources)
    lines += ["", node.text.strip(), ""]
    evidence = [e for e in node.evidence if e.quote.strip()]
    if evidence:
        lines += ["## Evidence", ""]
        for e in evidence:
            lines += _quote(e.quote)
            lines += [f"> — {source_titles.get(e.source_id, e.source_id)}", ""]
    if related:
        lines += ["## Related", ""]
        lines += [f"- {label}: [[{stem}]]" for label, stem in related]
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def vault_notes(snapshot: GraphSnapshot, topics: Mapping[str, TopicState],
                source_titles: Mapping[str, str]) -> dict[str, str]:
    """file name -> note text for every node of the snapshot. Links name files by stem (no
    folders, no extension), so every one resolves in Obsidian and in the notes importer."""
    names = note_names({n.id: n.text for n in snapshot.nodes})
    stems = {nid: name[:-3] for nid, name in names.items()}
    cluster_of = {nid: (c.label or c.id) for c in snapshot.clusters for nid in c.node_ids}
    related: dict[str, list[tuple[str, str]]] = {nid: [] for nid in names}
    for edge in sorted(snapshot.edges, key=lambda e: e.id):
        if edge.source not in names or edge.target not in names or edge.source == edge.target:
            continue
        forward, backward = _RELATIONS.get(edge.kind, ("Related", "Related"))
        related[edge.source].append((forward, stems[edge.target]))
        related[edge.target].append((backward, stems[edge.source]))
    return {
        names[n.id]: topic_note(n, topics[n.id], cluster_of.get(n.id), source_titles,
                                list(dict.fromkeys(related[n.id])))
        for n in snapshot.nodes
    }
