"""A note's outline follows the note (issue 28): the learner renames one heading and drops
another, imports again, and the dock's outline (``GET /api/graph/nodes/{id}`` ``sections``)
and the text its node is embedded by hold exactly the headings the note has now, and a search
finds it by what it says now — while the evidence quoting the dropped heading, and the learner's
quiz answers on it, stay; so for a PDF that lost a page. Over real HTTP
(ASGI) with a real import."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from studyhall.server.app import build_services

from tests.support.course import pdf_bytes
from tests.support.embedder import HashEmbedder
from tests.support.notes import write
from tests.support.server import api_client, make_config
from tests.support.shelf_client import imported, ready

MEMBRANE = """## Membrane

The membrane keeps the inside of the cell apart from the outside world.
Proteins in the membrane carry nutrients across it into the cell.
"""
NUCLEUS = """
The nucleus holds the genes of the cell inside a double membrane.
Pores in the nuclear envelope let messenger molecules leave the nucleus.
"""
RIBOSOMES = """## Ribosomes

Ribosomes build proteins from amino acids by reading messenger molecules.
Many ribosomes sit on the rough endoplasmic reticulum near the nucleus.
"""
BEFORE = f"# Cells\n\nCells are the units of every living thing.\n\n{MEMBRANE}\n## Nucleus\n{NUCLEUS}\n{RIBOSOMES}"
AFTER = f"# Cells\n\nCells are the units of every living thing.\n\n{MEMBRANE}\n## Cell nucleus\n{NUCLEUS}"


def detail_of(client, title: str) -> dict:
    [node] = [n for n in client.get("/api/graph").json()["nodes"] if n["text"] == title]
    return client.get(f"/api/graph/nodes/{node['id']}").json()


def found(client, query: str) -> list[str]:
    r = client.get("/api/graph/search", params={"q": query})
    assert r.status_code == 200, r.text
    return [hit["text"] for hit in r.json()["results"] if hit["match"] != "semantic"]


def outline(detail: dict) -> list[tuple[str, int]]:
    return [(s["heading"], s["level"]) for s in detail["sections"]]


def test_the_outline_lists_the_headings_the_note_has_after_an_edit(tmp_path: Path):
    vault = tmp_path / "Vault"
    (vault / ".obsidian").mkdir(parents=True)
    write(vault, "Cells.md", BEFORE)
    write(vault, "Atoms.md", "# Atoms\n\nAtoms are made of protons, neutrons and electrons.\n")
    embedder = HashEmbedder()
    services = replace(build_services(make_config()), embedder=embedder)
    with api_client(services) as client:
        note = imported(client, vault)["Cells.md"]
        assert note["sections"] == ["", "Cells", "Cells#Membrane", "Cells#Nucleus",
                                    "Cells#Ribosomes"]
        before = detail_of(client, "Cells")
        assert outline(before) == [("Cells", 0), ("Cells", 1), ("Membrane", 2), ("Nucleus", 2),
                                   ("Ribosomes", 2)]
        # The learner answers a Quiz me on the section about to be dropped.
        quiz = client.post(f"/api/sources/{note['id']}/quiz", json={"at": "ribosomes"}).json()
        answered = client.post(f"/api/sources/{note['id']}/quiz/{quiz['quiz_id']}/answers",
                               json={"dont_know": True}).json()
        assert [r["node_id"] for r in answered["recorded"]] == [before["node"]["id"]]

        assert "Cells: Cells; Membrane; Nucleus; Ribosomes" in embedder.seen
        assert found(client, "rough endoplasmic reticulum") == ["Cells"]
        write(vault, "Cells.md", AFTER)
        embedded = len(embedder.seen)
        again = imported(client, vault)
        assert again["Cells.md"]["sections"] == ["", "Cells", "Cells#Membrane",
                                                 "Cells#Cell nucleus"]
        assert again["Atoms.md"]["status"] == "unchanged"
        after = detail_of(client, "Cells")
        assert after["node"]["id"] == before["node"]["id"]
        assert outline(after) == [("Cells", 0), ("Cells", 1), ("Membrane", 2),
                                  ("Cell nucleus", 2)]
        assert [s["anchor"] for s in after["sections"]] == again["Cells.md"]["sections"]
        # The node is embedded by the headings it has now.
        assert "Cells: Cells; Membrane; Cell nucleus" in embedder.seen[embedded:]
        # The dropped section's evidence and the learner's answers on it are all still there.
        quotes = {e["quote"] for e in after["node"]["evidence"]}
        assert {"## Ribosomes", "## Nucleus"} <= quotes
        assert any(e["message_id"].endswith("#Cells#Ribosomes")
                   for e in after["node"]["evidence"])
        # A search by the dropped section's words no longer finds the note; by what it still
        # says, it does.
        assert "Cells" not in found(client, "rough endoplasmic reticulum")
        assert found(client, "nuclear envelope") == ["Cells"]
        mastery = client.get(f"/api/mastery/{after['node']['id']}").json()
        assert any(quiz["quiz_id"] in e["detail"] for e in mastery["explanation"])


def test_a_pdf_that_lost_a_page_lists_only_the_pages_it_has(tmp_path: Path):
    course, client = ready(tmp_path)
    with client:
        shelf = imported(client, course)
        pdf, lecture = shelf["Chapter 5.pdf"], shelf["lectures/Lecture 04 - Respiration.vtt"]
        assert pdf["sections"] == ["", "Page 1", "Page 2", "Page 3"]
        [topic] = [n for n in client.get("/api/graph").json()["nodes"]
                   if pdf["id"] in n.get("sources", [])]
        assert lecture["sections"][0] == "" and len(lecture["sections"]) > 2

        (course / "Chapter 5.pdf").write_bytes(pdf_bytes([
            "Chapter 5. Cellular respiration overview and the role of oxygen.",
            "Page two: the electron transport chain pumps protons across the inner membrane.",
        ]))
        again = imported(client, course)
        assert again["Chapter 5.pdf"]["sections"] == ["", "Page 1", "Page 2"]
        # An unchanged lecture's record is not written again.
        assert again["lectures/Lecture 04 - Respiration.vtt"] == lecture
        detail = client.get(f"/api/graph/nodes/{topic['id']}").json()
        assert [s["heading"] for s in detail["sections"] if s["level"] > 0] == ["Page 1",
                                                                                "Page 2"]
        assert any("ATP synthase uses the proton gradient" in e["quote"]
                   for e in detail["node"]["evidence"])  # page 3's words stay its evidence
