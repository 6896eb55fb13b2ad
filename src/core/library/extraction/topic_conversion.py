"""Converting a graph imported by older extractors into one topic per note: which node goes where.

Two older model-free imports made nodes that are no longer nodes; re-importing folds each into
its note's topic with an ``absorbs`` identity, so its evidence and the learner's quiz answers,
review grades and observations on it count for the topic (the fold follows identities):
- a node per sentence (wave 1): it counts as one only when its text IS one of its own quotes
  from a note of this import, reworded the way the structural extractor words a sentence — a
  model's distilled proposition is never folded;
- a node per heading, "Title: Heading" (wave 2): the node a current section of the note would
  have made, or one named "Title: …" whose every evidence quote is from that note's own
  sections (a heading since renamed or removed).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from studyhall.core.library.extraction.evidence import normalize_ws
from studyhall.core.library.extraction.merger import (
    KnownGraph,
    MergePlan,
    commit_merge,
    plan_absorb,
)
from studyhall.core.library.extraction.structural_extractor import (
    heading_node,
    root_text,
    section_node,
)
from studyhall.core.library.graph.view import SnapshotNode
from studyhall.core.library.sources.note_links import NoteRef
from studyhall.core.library.sources.notes.prose import clip, plain
from studyhall.core.library.sources.notes.views import section_message_id
from studyhall.core.ports.storage import GraphStore

# (the node to fold, the topic it goes into, that topic's text)
Fold = tuple[str, str, str]


def sentence_folds(nodes: Iterable[SnapshotNode], notes: Sequence[NoteRef]) -> list[Fold]:
    """Every sentence node of these notes with the topic it folds into, in graph order."""
    topic_of: dict[str, str] = {}  # section view message id -> its topic node
    root_of: dict[str, str] = {}  # note source id -> the note's topic node
    for ref in notes:
        for section in ref.doc.sections:
            topic_of[section_message_id(ref.source_id, section)] = section_node(ref.doc, section)
        root_of[ref.source_id] = section_node(ref.doc, ref.doc.sections[0])
    topics = set(topic_of.values())
    listed = list(nodes)
    texts = {n.id: n.text for n in listed}
    out: list[Fold] = []
    for node in listed:
        if node.id in topics:
            continue
        said = normalize_ws(node.text).casefold()
        for evidence in node.evidence:
            note = evidence.message_id.split("#", 1)[0]
            if note not in root_of or _sentence_text(evidence.quote) != said:
                continue
            topic = topic_of.get(evidence.message_id, root_of[note])
            if topic in texts:
                out.append((node.id, topic, texts[topic]))
                break
    return out


def heading_folds(nodes: Iterable[SnapshotNode], notes: Sequence[NoteRef]) -> list[Fold]:
    """Every heading node of these notes with the note's topic it folds into, in graph order."""
    listed = list(nodes)
    texts = {n.id: n.text for n in listed}
    into: dict[str, str] = {}  # heading node -> its note's topic
    prefixes: dict[str, tuple[str, str]] = {}  # note source id -> ("Title: ", its topic)
    for ref in notes:
        root = section_node(ref.doc, ref.doc.sections[0])
        if root not in texts:
            continue  # the note's topic is not merged (yet): nothing to fold into
        prefixes[ref.source_id] = (normalize_ws(root_text(ref.doc)).casefold() + ": ", root)
        for section in ref.doc.sections[1:]:
            old = heading_node(ref.doc, section)
            if old != root:
                into.setdefault(old, root)
    roots = {topic for _, topic in prefixes.values()}
    out: list[Fold] = []
    for node in listed:
        if node.id in roots:
            continue  # a note titled "Graphs: Trees" is a topic, whatever "Graphs" once made
        topic = into.get(node.id) or _gone_heading(node, prefixes)
        if topic is not None and topic != node.id:
            out.append((node.id, topic, texts[topic]))
    return out


def _gone_heading(node: SnapshotNode, prefixes: dict[str, tuple[str, str]]) -> str | None:
    notes = {e.message_id.split("#", 1)[0] for e in node.evidence}
    if len(notes) != 1:
        return None
    found = prefixes.get(notes.pop())
    if found is None or not normalize_ws(node.text).casefold().startswith(found[0]):
        return None
    return found[1]


def _sentence_text(quote: str) -> str:
    return normalize_ws(clip(plain(quote))).casefold()


def fold_sentence_nodes(
    nodes: Sequence[SnapshotNode],
    notes: Sequence[NoteRef],
    store: GraphStore,
    *,
    run_id: str,
    source_id: str,
    at: datetime,
) -> MergePlan | None:
    """Write one run folding every sentence and heading node of these notes into its topic;
    None (and nothing written) when there is none — an up-to-date graph."""
    folds = sentence_folds(nodes, notes)
    folded = {old for old, _, _ in folds}
    folds += [f for f in heading_folds(nodes, notes) if f[0] not in folded]
    if not folds:
        return None
    known = KnownGraph(frozenset(n.id for n in nodes))
    plan = plan_absorb(folds, known, run_id=run_id, source_id=source_id, at=at)
    commit_merge(plan, store)
    return plan
