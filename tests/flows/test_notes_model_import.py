"""With a model configured, notes go through the LLM extractor (notes prompt), auditor, merger:
invented quotes are dropped, a failing note is reported and retried next time, no key falls
back to the model-free extractor, and cluster labels come from the labeler."""

from __future__ import annotations

from pathlib import Path

from studyhall.adapters.store import JsonlGraphStore, JsonSourceStore
from studyhall.core.errors import ModelTimeout
from studyhall.core.library.graph.snapshot import graph_snapshot
from studyhall.core.library.sources.notes.views import note_source_id

from tests.support.chat_model import FunctionChatModel
from tests.support.chat_script import Replies, scripted
from tests.support.embedder import HashEmbedder
from tests.support.library_session import keep_all
from tests.support.notes import importer, write


def vault_with_two_notes(root: Path) -> tuple[Path, str, str]:
    write(root / ".obsidian", "app.json", "{}")
    write(root, "A.md", "# A\nEnzymes lower the activation energy of reactions.\n")
    write(root, "B.md", "Catalysts are not consumed by the reaction.\n")
    return root, note_source_id("Vault", "A.md"), note_source_id("Vault", "B.md")


def extraction(sid: str, section: str, text: str, quote: str) -> dict:
    return {
        "propositions": [
            {
                "key": "p1",
                "text": text,
                "evidence": [{"message_id": f"{sid}#{section}", "quote": quote}],
            }
        ],
        "edges": [],
    }


async def test_the_model_extracts_and_the_merger_still_checks_every_quote(tmp_path: Path):
    vault, a, b = vault_with_two_notes(tmp_path / "Vault")
    model = scripted(
        extractor=[
            {
                "propositions": [
                    {
                        "key": "p1",
                        "text": "Enzymes lower activation energy.",
                        "evidence": [
                            {"message_id": f"{a}#A", "quote": "Enzymes lower the activation energy"}
                        ],
                    },
                    {
                        "key": "p2",
                        "text": "Enzymes are proteins.",
                        "evidence": [
                            {"message_id": f"{a}#A", "quote": "Enzymes are always proteins"}
                        ],
                    },
                ],
                "edges": [{"from": "p2", "to": "p1", "kind": "supports"}],
            },
            extraction(b, "", "Catalysts are not consumed.", "not consumed by the reaction"),
        ],
        auditor=[keep_all("p1", "p2"), keep_all("p1")],
    )
    data = tmp_path / "data"
    report = await importer(data, chat_model=model).run(str(vault), embed=False)
    assert report.extractor == "model"
    snap = graph_snapshot(JsonlGraphStore(data / "graph"))
    ids = {n.text: n.id for n in snap.nodes}
    # Was: the model's propositions alone. Now each note's topic (its title) is a node too and
    # every proposition hangs under the topic of the note it came from.
    assert set(ids) == {"Enzymes lower activation energy.", "Catalysts are not consumed.", "A", "B"}
    edges = {(e.source, e.target, e.kind) for e in snap.edges}
    assert (ids["Enzymes lower activation energy."], ids["A"], "supports") in edges
    assert (ids["Catalysts are not consumed."], ids["B"], "supports") in edges
    assert report.dropped >= 2  # the invented quote, then the edge to the dropped finding
    extractor_calls = [r for r in model.requests if r.role == "extractor"]
    assert "notes" in extractor_calls[0].messages[0]["content"]
    assert (
        f"{a}#A/3 | Enzymes lower the activation energy"
        in extractor_calls[0].messages[1]["content"]
    )


async def test_a_failing_note_is_reported_and_retried_by_the_next_import(tmp_path: Path):
    vault, a, b = vault_with_two_notes(tmp_path / "Vault")
    replies = Replies(
        extractor=[
            ModelTimeout("the extractor timed out", role="extractor"),
            extraction(b, "", "Catalysts are not consumed.", "not consumed by the reaction"),
        ],
        auditor=[keep_all("p1")],
    )
    model = FunctionChatModel(replies)
    data = tmp_path / "data"
    report = await importer(data, chat_model=model).run(str(vault), embed=False)
    assert [f.path for f in report.failed] == ["A.md"]
    assert "extraction failed: the extractor timed out" in report.failed[0].reason
    status = {s.path: (s.status, s.reason) for s in JsonSourceStore(data / "sources").list()}
    assert status["A.md"][0] == "skipped" and status["B.md"] == ("imported", None)
    replies.queues["extractor"] = [
        extraction(a, "A", "Enzymes lower activation energy.", "Enzymes lower the activation")
    ]
    replies.queues["auditor"] = [keep_all("p1")]
    again = await importer(data, chat_model=model).run(str(vault), embed=False)
    assert (again.imported, again.unchanged, again.failed) == (1, 1, [])


async def test_no_model_answers_so_the_structural_extractor_takes_over(tmp_path: Path):
    vault, _, _ = vault_with_two_notes(tmp_path / "Vault")
    model = scripted()  # every role: "no scripted answer" -> ModelNotConfigured
    report = await importer(tmp_path / "data", chat_model=model).run(str(vault), embed=False)
    assert report.extractor == "structural"
    assert report.extractor_note and "no scripted answer" in report.extractor_note
    # Was ``propositions >= 3`` (a node per sentence); now one topic per note, sentences as
    # its evidence.
    assert report.imported == 2 and report.propositions == 2


async def test_cluster_labels_come_from_the_labeler_when_a_model_answers(tmp_path: Path):
    root = tmp_path / "Vault"
    for i in range(3):
        # Topics are named by their note: similar titles make one cluster.
        write(root, f"Mitochondria make ATP {i}.md", f"The cell number {i} needs energy.\n")
    # Three notes are three regions now (at least five regions, or one per topic: issue 28),
    # so the labeler names each one.
    model = scripted(labeler=["Cell energy", "Other", "Third"])
    report = await importer(tmp_path / "data", embedder=HashEmbedder(), chat_model=model).run(
        str(root), mode="structural"
    )
    clusters = JsonlGraphStore(tmp_path / "data" / "graph").clusters()
    assert report.upkeep is not None and report.upkeep.labeled_by_model == len(clusters) >= 1
    assert clusters[0].label == "Cell energy" and clusters[0].label_source == "model"
