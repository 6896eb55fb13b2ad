"""Concepts, not sentences, are nodes: a real-shaped vault imports as one topic per note and one
sub-topic per heading, its sentences the evidence on them, every resolved link an edge between
topics — and re-importing over an older one-node-per-sentence graph folds those nodes into their
topics with the learner's quiz answers still attached."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from studyhall.adapters.store import JsonlGraphStore
from studyhall.core.contracts.graph import (
    EdgeAdded,
    Evidence,
    PropositionCreated,
    QuizEvent,
    RunCheckpoint,
)
from studyhall.core.library.extraction.merger import node_id_for
from studyhall.core.library.graph.snapshot import graph_snapshot
from studyhall.core.library.sources.notes.views import note_source_id

from tests.support.notes import importer, make_vault
from tests.support.real_vault import make_real_vault, title_of

OLD = datetime(2025, 6, 1, tzinfo=UTC)


async def test_a_real_vault_imports_as_topics_with_sentences_as_their_evidence(tmp_path: Path):
    vault = make_real_vault(tmp_path / "Vault", notes=30)
    report = await importer(tmp_path / "data").run(str(vault.root), embed=False)
    assert (report.imported, report.dropped) == (30, 0)
    snap = graph_snapshot(JsonlGraphStore(tmp_path / "data" / "graph"))
    # One node per note (issue 28: was also one per heading, vault.notes + vault.headings; and
    # before that one per sentence, ~40/note).
    assert len(snap.nodes) == vault.notes
    by_text = {n.text: n for n in snap.nodes}
    topic = by_text[title_of(min(vault.links)[0])]
    quotes = [e.quote for e in topic.evidence]
    assert quotes[0].startswith("# ") and any("command palette" in q for q in quotes)
    assert not any(n.text.startswith("To open a linked") for n in snap.nodes)
    # Every resolved link between notes is an edge from the note's topic to the topic of the
    # note it names (wherever in it the link points: a heading or block is a section).
    note_of = {n.id: n.text.split(": ", 1)[0] for n in snap.nodes}
    edges = {(note_of[e.source], note_of[e.target]) for e in snap.edges if e.kind == "supports"}
    for source, target in vault.links:
        assert (title_of(source), title_of(target)) in edges, (source, target)
    # Headings are sections of their note's topic, not nodes: no edge joins a note to itself
    # (was: each heading's node supported its note's topic).
    assert not any(n.text.endswith("settings 0") for n in snap.nodes)
    assert all(source != target for source, target in edges)


def _old_records(data: Path, sid: str) -> tuple[str, str]:
    """Append what the one-node-per-sentence import made for one sentence of note 00 — its
    node, an edge to the next note, and a quiz answer on it — as a checkpointed old run."""
    graph = JsonlGraphStore(data / "graph")
    text = "Step one of note 00 starts the process."
    old = node_id_for(text)
    evidence = Evidence(source_id=sid, message_id=f"{sid}#Steps", quote=text)
    graph.append_propositions([PropositionCreated(
        id="prp_old", node_id=old, text=text, evidence=(evidence,), source_id=sid,
        run_id="run_old", at=OLD)])
    next_topic = node_id_for("Note 01")
    graph.append_edges([EdgeAdded.model_validate({
        "id": "edg_old", "from": old, "to": next_topic, "relation": "supports",
        "source_id": sid, "run_id": "run_old", "at": OLD})])
    graph.append_quiz_events([QuizEvent(
        id="quz_old", node_id=old, verdict="correct", source_id="chat_a", tool_call_id="call_1",
        question_index=0, run_id="run_old", at=OLD)])
    graph.append_checkpoint(RunCheckpoint(id="run_old", source_id=sid, started_at=OLD,
                                          finished_at=OLD))
    return old, next_topic


async def test_reimport_folds_old_sentence_nodes_into_topics_and_keeps_quiz_evidence(
    tmp_path: Path,
):
    vault = make_vault(tmp_path / "Vault", notes=4)
    data = tmp_path / "data"
    await importer(data).run(str(vault), embed=False)
    sid = note_source_id("Vault", "cells/Note 00.md")
    old, next_topic = _old_records(data, sid)
    graph = JsonlGraphStore(data / "graph")
    assert old in {n.id for n in graph_snapshot(graph).nodes}  # the old shape, as on disk

    report = await importer(data).run(str(vault), embed=False)
    snap = graph_snapshot(graph)
    assert old not in {n.id for n in snap.nodes}
    # Into the note's topic (was: the heading node "Note 00: Steps", a section now).
    [steps] = [n for n in snap.nodes if n.text == "Note 00"]
    assert [(q.tool_call_id, q.verdict) for q in steps.quiz] == [("call_1", "correct")]
    assert "Step one of note 00 starts the process." in {e.quote for e in steps.evidence}
    assert steps.state != "not-tried"  # what was learned still counts, on the topic
    assert (steps.id, next_topic, "supports") in {(e.source, e.target, e.kind) for e in snap.edges}
    assert report.evidence == 1  # the one fold, nothing else new

    # Converting is done once: the next import writes nothing.
    before = sorted(p.read_bytes() for p in (data / "graph").rglob("*.jsonl"))
    await importer(data).run(str(vault), embed=False)
    assert sorted(p.read_bytes() for p in (data / "graph").rglob("*.jsonl")) == before
