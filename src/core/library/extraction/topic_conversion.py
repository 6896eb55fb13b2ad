"""Converting a graph imported one node per note sentence into topics: which node goes where.

An older model-free import made every sentence of a note its own node. Re-importing folds each
such node into the topic of the section it was quoted from (the note's topic when that section
is gone), so its evidence and the learner's quiz answers and observations on it join the topic.
A node counts as such a sentence only when its text IS one of its own quotes from a note of
this import, reworded the way the structural extractor words a sentence — a model's distilled
proposition is never folded.
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
from studyhall.core.library.extraction.structural_extractor import section_node
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
    """Write one run folding every sentence node of these notes into its topic; None (and
    nothing written) when there is none — an up-to-date graph."""
    folds = sentence_folds(nodes, notes)
    if not folds:
        return None
    known = KnownGraph(frozenset(n.id for n in nodes))
    plan = plan_absorb(folds, known, run_id=run_id, source_id=source_id, at=at)
    commit_merge(plan, store)
    return plan
