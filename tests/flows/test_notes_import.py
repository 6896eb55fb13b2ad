"""Notes import end to end over real file stores: what lands in the graph and the sources index,
idempotent re-imports, a changed note re-extracting only its change, deleted notes, bad files."""

from __future__ import annotations

import json
from pathlib import Path

from studyhall.adapters.store import JsonlGraphStore, JsonSourceStore
from studyhall.core.library.graph.snapshot import graph_snapshot
from studyhall.core.library.sources.notes.views import note_source_id

from tests.support.embedder import HashEmbedder
from tests.support.notes import (
    add_twin_notes,
    canonical,
    importer,
    ledger_bytes,
    make_vault,
    write,
)


def sources(data: Path) -> dict[str, dict]:
    return {s.path: s.model_dump(mode="json") for s in JsonSourceStore(data / "sources").list()}


async def test_import_builds_the_graph_and_the_sources_index(tmp_path: Path):
    vault = make_vault(tmp_path / "Vault", notes=6)
    write(vault, "bad/binary.md", b"PNG\x00\x00")
    write(vault, "bad/latin.md", "caf\xe9".encode("latin-1"))
    write(vault, "cells/Broken links.md", "Points at [[Nowhere]] and ![[missing.png]] today.")
    data = tmp_path / "data"
    report = await importer(data).run(str(vault), embed=False)

    assert (report.notes, report.imported, report.unchanged) == (7, 7, 0)
    assert {(s.path, s.reason) for s in report.skipped} == {
        ("bad/binary.md", "a binary file, not text"),
        ("bad/latin.md", "not valid UTF-8 (bad byte at offset 3); save it as UTF-8"),
    }
    assert report.extractor == "structural" and report.dropped == 0
    got = sources(data)
    note0 = got["cells/Note 00.md"]
    assert note0["id"] == note_source_id("Vault", "cells/Note 00.md")
    assert (note0["status"], note0["kind"], note0["root"]) == ("imported", "note", str(vault))
    assert note0["links"] == ["energy/Note 01.md"] and note0["broken_links"] == []
    assert got["cells/Broken links.md"]["broken_links"] == ["Nowhere", "missing.png"]
    assert got["bad/binary.md"]["status"] == "skipped"
    assert got["bad/binary.md"]["reason"] == "a binary file, not text"

    snap = graph_snapshot(JsonlGraphStore(data / "graph"))
    texts = {n.text for n in snap.nodes}
    # Was: one node per sentence, then a node per heading too (7 + 6 * 2 = 19). Now a note is
    # one topic, its headings its sections, its sentences the evidence on it (issue 28).
    assert {"Note 00"} <= texts and not any(": " in t for t in texts)
    assert len(texts) == 7
    assert not any("Not a link" in t or "Nowhere" == t for t in texts)  # nothing invented
    by_text = {n.text: n for n in snap.nodes}
    steps = {e.quote for e in by_text["Note 00"].evidence if e.message_id.endswith("#Steps")}
    assert "1. Step one of note 00 starts the process." in steps or (
        "Step one of note 00 starts the process." in steps
    )
    edges = {(e.source, e.target, e.kind) for e in snap.edges}
    ids = {text: node.id for text, node in by_text.items()}
    # A link from note 00 to note 01 joins their topics ...
    assert (ids["Note 00"], ids["Note 01"], "supports") in edges
    # ... a heading link lands on that note too (the heading is its section), one edge a
    # pair; and headings make no edges (was: each heading supported its note's topic).
    assert [(a, b) for a, b, _ in edges if a == ids["Note 00"]] == [(ids["Note 00"],
                                                                  ids["Note 01"])]
    assert len(edges) == 6


async def test_reimporting_an_unchanged_vault_writes_nothing(tmp_path: Path):
    vault = make_vault(tmp_path / "Vault")
    data = tmp_path / "data"
    await importer(data).run(str(vault), embed=False)
    before = ledger_bytes(data)
    report = await importer(data).run(str(vault), embed=False)
    assert (report.imported, report.unchanged, report.propositions, report.edges) == (0, 12, 0, 0)
    assert report.extractor.startswith("none")
    assert ledger_bytes(data) == before
    assert {s["status"] for s in sources(data).values()} == {"unchanged"}


async def test_an_index_from_before_sections_gets_them_on_an_unchanged_reimport(tmp_path: Path):
    vault = make_vault(tmp_path / "Vault")
    data = tmp_path / "data"
    embedder = HashEmbedder()
    await importer(data, embedder=embedder).run(str(vault))
    index = data / "sources" / "index.json"
    doc = json.loads(index.read_text())
    for record in doc["sources"]:
        del record["sections"]  # as the code before ``Source.sections`` wrote it
    index.write_text(json.dumps(doc))
    assert {s["sections"] for s in sources(data).values()} == {None}
    before, embedded = ledger_bytes(data), embedder.texts
    report = await importer(data, embedder=embedder).run(str(vault), embed=False)
    assert (report.imported, report.unchanged, report.evidence) == (0, 12, 0)
    assert ledger_bytes(data) == before
    assert sources(data)["cells/Note 00.md"]["sections"] == [
        "", "Details of cells", "Steps"]
    await importer(data, embedder=embedder).run(str(vault))
    assert embedder.texts == embedded  # every node means what it meant: nothing embedded again


async def test_a_changed_note_re_extracts_only_its_changed_section(tmp_path: Path):
    vault = make_vault(tmp_path / "Vault")
    data = tmp_path / "data"
    await importer(data).run(str(vault), embed=False)
    graph = JsonlGraphStore(data / "graph")
    runs_before = {c.id for c in graph.checkpoints().records}
    note = vault / "energy" / "Note 01.md"
    note.write_text(
        note.read_text().replace(
            "Step two of note 01 finishes the process.",
            "Step two of note 01 ends the whole process.",
        )
    )
    report = await importer(data).run(str(vault), embed=False)
    assert (report.imported, report.unchanged) == (1, 11)
    sid = note_source_id("Vault", "energy/Note 01.md")
    fresh = [
        r.message_id
        for path in sorted(vault.rglob("*.md"))
        for r in graph.coverage(note_source_id("Vault", str(path.relative_to(vault)))).records
        if r.run_id not in runs_before
    ]
    assert fresh == [f"{sid}#Steps"]  # one section of one note was extracted again
    # Was: the rewritten step became a new node. Now it is new evidence on the note's topic
    # (was: on the heading node "Note 01: Steps", a section now).
    assert (report.propositions, report.evidence) == (0, 1)
    [steps] = [n for n in graph_snapshot(graph).nodes if n.text == "Note 01"]
    assert any("ends the whole process" in e.quote for e in steps.evidence)


async def test_a_deleted_note_is_reported_and_kept_in_the_index(tmp_path: Path):
    vault = make_vault(tmp_path / "Vault")
    data = tmp_path / "data"
    await importer(data).run(str(vault), embed=False)
    (vault / "genes" / "Note 02.md").unlink()
    report = await importer(data).run(str(vault), embed=False)
    assert report.deleted == ["genes/Note 02.md"]
    gone = sources(data)["genes/Note 02.md"]
    assert (gone["status"], gone["reason"]) == ("deleted", "the file is gone from the vault")
    again = await importer(data).run(str(vault), embed=False)
    assert again.deleted == []  # reported once, stays deleted
    assert sources(data)["genes/Note 02.md"]["status"] == "deleted"


async def test_importing_one_note_resolves_its_links_against_the_whole_vault(tmp_path: Path):
    vault = make_vault(tmp_path / "Vault")
    data = tmp_path / "data"
    report = await importer(data).run(str(vault / "cells" / "Note 00.md"), embed=False)
    assert (report.notes, report.target) == (1, "cells/Note 00.md")
    assert sources(data)["cells/Note 00.md"]["links"] == ["energy/Note 01.md"]
    # Importing a note alone never marks the rest of the vault deleted.
    await importer(data).run(str(vault), embed=False)
    report = await importer(data).run(str(vault / "cells" / "Note 00.md"), embed=False)
    assert report.deleted == []


async def test_import_in_one_go_equals_import_note_by_note(tmp_path: Path):
    vault = make_vault(tmp_path / "Vault", notes=6)
    whole, parts = tmp_path / "whole", tmp_path / "parts"
    await importer(whole).run(str(vault), embed=False)
    for note in sorted(vault.rglob("*.md")):
        if ".obsidian" not in note.parts:
            await importer(parts).run(str(note), embed=False)
    await importer(parts).run(str(vault), embed=False)  # the links between notes, once all exist
    assert canonical(parts) == canonical(whole)


async def test_embeddings_clusters_and_layout_follow_an_import(tmp_path: Path):
    vault = add_twin_notes(make_vault(tmp_path / "Vault"))  # a cluster to label
    data = tmp_path / "data"
    embedder = HashEmbedder()
    report = await importer(data, embedder=embedder).run(str(vault))
    graph = JsonlGraphStore(data / "graph")
    snap = graph_snapshot(graph)
    assert report.upkeep is not None
    assert report.upkeep.cache_misses == len({n.text for n in snap.nodes})
    assert set(graph.positions()) == {n.id for n in snap.nodes}
    assert len(graph.embeddings(embedder.model_id)) == len({n.text for n in snap.nodes})
    clusters = graph.clusters()
    assert clusters and all(c.label and c.label_source == "terms" for c in clusters)
    # Again: every vector comes from the cache, the clusters keep their ids and labels.
    again = await importer(data, embedder=embedder).run(str(vault))
    assert again.upkeep is not None
    assert again.upkeep.cache_misses == 0 and again.upkeep.hit_rate == 1.0
    assert [(c.id, c.label) for c in graph.clusters()] == [(c.id, c.label) for c in clusters]


async def test_a_small_vault_gets_five_regions_named_apart(tmp_path: Path):
    # Ten notes the test embedder finds alike: one cluster by the threshold alone.
    vault = make_vault(tmp_path / "Vault", notes=10)
    data = tmp_path / "data"
    await importer(data, embedder=HashEmbedder()).run(str(vault))
    clusters = JsonlGraphStore(data / "graph").clusters()
    regions = {c.region for c in clusters}
    names = [c.label for c in clusters if c.id in regions]
    assert len(regions) >= 5  # issue 28: 5–40 regions at whole-graph zoom
    assert all(names) and len({n.casefold() for n in names}) == len(names)


async def test_regions_are_named_by_the_folders_the_notes_live_in(tmp_path: Path):
    vault = tmp_path / "Vault"
    for folder, topic in (("Physics", "lenses bend light"), ("History", "rome fell"),
                          ("src", "a parser reads tokens")):
        for i in range(3):
            write(vault, f"{folder}/{folder} note {i}.md", f"# {folder} note {i}\n\n{topic} {i}.\n")
    data = tmp_path / "data"
    await importer(data, embedder=HashEmbedder()).run(str(vault))
    labels = {c.label for c in JsonlGraphStore(data / "graph").clusters()}
    assert {"Physics", "History"} <= labels
    assert "Src" not in labels and "src" not in labels  # a folder of code names no region
