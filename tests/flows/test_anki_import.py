"""``studyhall import deck.apkg``: a deck the test writes with genanki (plus revlog rows added
with sqlite3) becomes a topic per deck level and a proposition per note; its review history
becomes review grades whose FSRS replay is the card state; its cards join the review queue as
flashcards; a re-import changes nothing; the same deck as Anki 2.1.50+ exports it (zstd,
schema 18) imports the same; broken or hostile packages are refused whole."""

from __future__ import annotations

import json
import os
import tempfile
import zipfile
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
import zstandard
from studyhall.adapters.sources.anki_package import AnkiPackageReader
from studyhall.adapters.store import JsonlGraphStore, JsonlLearnerStore
from studyhall.core.contracts.learner import CardSuspended
from studyhall.core.errors import InvalidInput
from studyhall.core.library.extraction.anki_extractor import topic_text
from studyhall.core.library.extraction.merger import node_id_for
from studyhall.core.library.graph.snapshot import graph_snapshot
from studyhall.core.library.learner.cards import Graded, replay
from studyhall.desktop.cli import main

from tests.support.anki_deck import (
    REVIEWS,
    altered_deck,
    members,
    modernize,
    rezip,
    write_deck,
    write_modern_deck,
)
from tests.support.runs import finished
from tests.support.session_api import scripted_app

HOLA = node_id_for("What does hola mean? — Hello (a greeting)")


def data_dir() -> Path:
    return Path(os.environ["STUDYHALL_DATA_DIR"])


def ledgers() -> tuple[list, list, list]:
    graph = JsonlGraphStore(data_dir() / "graph")
    learner = JsonlLearnerStore(data_dir() / "learner")
    return (list(graph.propositions().records), list(learner.grades().records),
            list(learner.flashcards().records))


@pytest.mark.parametrize("write", [write_deck, write_modern_deck], ids=["legacy", "anki21b"])
def test_a_deck_imports_with_its_history_and_again_changes_nothing(tmp_path, capsys, write):
    deck = write(tmp_path / "spanish.apkg")
    assert main(["import", str(deck), "--json", "--no-embed"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["notes"] == 3 and report["imported"] == 3 and report["propositions"] == 5
    assert report["anki"] == {"decks": 1, "notes_in_graph": 3, "reviews": 6,
                              "reviews_in_deck": 6, "reviews_left_out": 1,
                              "reviews_cram_left_out": 0, "cards_queued": 3,
                              "cards_suspended": 0}
    snapshot = graph_snapshot(JsonlGraphStore(data_dir() / "graph"))
    texts = {n.id: n.text for n in snapshot.nodes}
    spanish = node_id_for(topic_text("Languages::Spanish"))
    assert texts[spanish] == "Languages: Spanish" and "Languages" in texts.values()
    assert texts[HOLA] == "What does hola mean? — Hello (a greeting)"
    assert "Spanish for cat? — el gato [image: gato.jpg]" in texts.values()  # media: mentions
    supports = {(e.source, e.target) for e in snapshot.edges if e.kind == "supports"}
    assert (HOLA, spanish) in supports
    assert (spanish, node_id_for("Languages")) in supports
    props, grades, cards = ledgers()
    assert {g.node_id for g in grades} == {HOLA, node_id_for(
        "Spanish for cat? — el gato [image: gato.jpg]")}
    assert all(g.prompt_kind == "flashcard" and g.id.startswith("rev_anki_") for g in grades)
    assert {c.front for c in cards} == {"What does hola mean?", "Spanish for cat?",
                                        "Spanish for dog?"}

    assert main(["import", str(deck), "--json", "--no-embed"]) == 0  # again: nothing new
    again = json.loads(capsys.readouterr().out)
    assert again["imported"] == 0 and again["unchanged"] == 3 and again["propositions"] == 0
    assert again["anki"]["reviews"] == 0 and again["anki"]["cards_queued"] == 0
    assert ledgers() == (props, grades, cards)


async def test_the_fsrs_state_is_the_replay_of_the_decks_answers(tmp_path):
    deck = write_deck(tmp_path / "spanish.apkg")
    async with scripted_app(None) as (api, runtime):
        await runtime.library.import_here(str(deck), embed=False)
        model = runtime.learner.model()
        hola = [r for r in REVIEWS if r[0] == "g-hola"]
        grades = [Graded(_at(at), ("again", "hard", "good", "easy")[ease - 1])
                  for _, at, ease, _ in hola]
        expected = replay(grades, grades[0].at)
        card = model.card(HOLA)
        assert card.reviews == 5
        assert (card.card.stability, card.card.difficulty, card.due) == (
            expected.card.stability, expected.card.difficulty, expected.due)
        assert model.score(HOLA).value is not None  # the grades are evidence on the node

        r = await api.http.get(f"/api/review?node={HOLA}")
        shown = r.json()["due"][0]
        assert shown["kind"] == "flashcard" and shown["prompt"] == "What does hola mean?"
        assert shown["answer"] == "Hello\n(a greeting)"
        queue = (await api.http.get("/api/review?limit=50")).json()["due"]
        assert {c["prompt"] for c in queue} >= {"Spanish for dog?"}  # never reviewed: new card
        before = model.card(HOLA).reviews
        r = await api.http.post(f"/api/review/{HOLA}", json={"grade": "good", "kind": "flashcard"})
        assert r.status_code == 200 and r.json()["reviews"] == before + 1


def _at(ms: int):
    from datetime import UTC, datetime

    return datetime.fromtimestamp(ms / 1000, UTC)


def test_v1_scheduler_learning_buttons_are_three(tmp_path):
    deck = write_deck(tmp_path / "old.apkg", reviews=[("g-hola", 1_736_154_000_000, 3, 0),
                                                      ("g-hola", 1_736_154_600_000, 3, 1)])
    files = members(deck)
    db = tmp_path / "c.anki2"
    db.write_bytes(files["collection.anki2"])
    import sqlite3

    with sqlite3.connect(db) as conn:
        (conf,) = conn.execute("select conf from col").fetchone()
        conn.execute("update col set conf = ?", (json.dumps({**json.loads(conf),
                                                             "schedVer": 1}),))
    rezip(deck, {**files, "collection.anki2": db.read_bytes()})
    (hola,) = [n for n in AnkiPackageReader().read(str(deck)).notes if n.guid == "g-hola"]
    assert [r.grade for r in hola.reviews] == ["easy", "good"]  # learning: 3 = easy


def test_a_modern_deck_reads_as_the_legacy_one(tmp_path):
    legacy_deck = write_deck(tmp_path / "legacy.apkg")
    legacy = AnkiPackageReader().read(str(legacy_deck))
    deck = modernize(legacy_deck, tmp_path / "modern.apkg")
    files = members(deck)
    assert {"collection.anki21b", "collection.anki2", "meta"} <= set(files)  # the dummy too
    collection = tmp_path / "v18.sqlite"
    collection.write_bytes(zstandard.ZstdDecompressor().decompress(
        files["collection.anki21b"], max_output_size=64 << 20))
    import sqlite3

    with sqlite3.connect(collection) as conn:  # the fixture really is schema 18
        assert conn.execute("select ver, decks, models from col").fetchone() == (18, "", "")
        assert ("Languages\x1fSpanish",) in conn.execute("select name from decks").fetchall()
    conn.close()
    modern = AnkiPackageReader().read(str(deck))
    assert len(modern.notes) == 3 and modern.notes[0].deck == "Languages::Spanish"
    assert replace(modern, path=legacy.path) == legacy  # decks, notes, reviews: all the same
    assert "g-update" not in {n.guid for n in modern.notes}  # the dummy is never read

    data = collection.read_bytes()  # zstd frames one after another are one collection
    zstd = zstandard.ZstdCompressor()
    two = zstd.compress(data[:5000]) + zstd.compress(data[5000:])
    again = rezip(tmp_path / "frames.apkg", {**files, "collection.anki21b": two})
    assert replace(AnkiPackageReader().read(str(again)), path=legacy.path) == legacy


def _modern_but(path: Path, collection: bytes | None = None, cut: int = 0) -> Path:
    """The modern deck with its compressed collection replaced, or cut ``cut`` bytes short."""
    files = members(write_modern_deck(path))
    compressed = files["collection.anki21b"] if collection is None else collection
    return rezip(path, {**files, "collection.anki21b": compressed[:len(compressed) - cut]})


@pytest.mark.parametrize(("make", "says"), [
    (lambda p: p.write_bytes(b"not a zip at all"), "not an Anki package"),
    (lambda p: rezip(p, {"media": b"{}"}), "holds no Anki collection"),
    (lambda p: rezip(p, {"collection.anki21b": b"\x28\xb5\x2f\xfd", "media": b""}),
     "is cut short"),
    (lambda p: _modern_but(p, cut=40), "is cut short"),
    (lambda p: _modern_but(p, collection=b"SQLite format 3\x00" * 40), "is damaged"),
    (lambda p: _modern_but(p, collection=zstandard.ZstdCompressor().compress(
        b"SQLite format 3\x00" + b"\x00" * 200)), "not a readable Anki collection"),
    (lambda p: rezip(p, {"collection.anki2": b"SQLite format 3\x00" + b"\x00" * 200}),
     "not a readable Anki collection"),
    (lambda p: rezip(p, {**members(write_deck(p)), "media": b'{"0": "../../etc/passwd"}'}),
     "outside the deck"),
    (lambda p: rezip(p, {**members(write_deck(p)), "../evil.txt": b"x"}), "outside the deck"),
])
def test_broken_packages_are_refused_and_nothing_is_written(tmp_path, capsys, make, says):
    deck = tmp_path / "bad.apkg"
    make(deck)
    assert main(["import", str(deck), "--no-embed"]) == 1
    assert says in capsys.readouterr().err
    assert not (data_dir() / "graph" / "propositions.jsonl").exists() or \
        ledgers()[0] == []
    assert ledgers()[1:] == ([], [])


def test_missing_tables_and_a_bomb_are_refused(tmp_path):
    import sqlite3

    empty = tmp_path / "empty.anki2"
    with sqlite3.connect(empty) as conn:
        conn.execute("create table col (decks text)")
    deck = rezip(tmp_path / "tables.apkg", {"collection.anki2": empty.read_bytes()})
    with pytest.raises(InvalidInput, match="missing Anki's tables"):
        AnkiPackageReader().read(str(deck))
    bomb = tmp_path / "bomb.apkg"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("collection.anki2", b"\x00" * (8 << 20))  # 8 MiB of zeros: a few KiB zipped
    assert bomb.stat().st_size < 100_000
    with pytest.raises(InvalidInput, match="more than 1 MiB"):
        AnkiPackageReader(max_collection_bytes=1 << 20).read(str(bomb))


def test_a_zstd_bomb_stops_at_the_cap_and_leaves_nothing(tmp_path, monkeypatch):
    zeros = zstandard.ZstdCompressor(level=19).compress(b"\x00" * (64 << 20))
    assert len(zeros) < 10_000  # 64 MiB of collection in a few KiB
    deck = _modern_but(tmp_path / "bomb.apkg", collection=zeros)
    cut = _modern_but(tmp_path / "cut.apkg", cut=1)
    own_tmp = tmp_path / "tmp"  # where the reader unpacks, from here on
    own_tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(own_tmp))
    with pytest.raises(InvalidInput, match="more than 1 MiB"):
        AnkiPackageReader(max_collection_bytes=1 << 20).read(str(deck))
    import tracemalloc

    tracemalloc.start()  # under a 32 MiB cap the bomb is still only ever held in small pieces
    try:
        with pytest.raises(InvalidInput, match="more than 32 MiB"):
            AnkiPackageReader(max_collection_bytes=32 << 20).read(str(deck))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 24 << 20, peak  # one piece's output (≤ 8 MiB), twice while it is joined
    with pytest.raises(InvalidInput, match="cut short"):
        AnkiPackageReader().read(str(cut))
    assert list(own_tmp.iterdir()) == []  # the unpacked collection is gone either way


def test_cloze_notes_and_field_html(tmp_path):
    import genanki

    deck = genanki.Deck(1_111_222_333, "Biology")
    deck.add_note(genanki.Note(model=genanki.CLOZE_MODEL, guid="g-cell", fields=[
        "The {{c1::mitochondrion::organelle}} makes &amp; stores <b>ATP</b>.", "Extra: energy"]))
    path = tmp_path / "bio.apkg"
    genanki.Package(deck).write_to_file(str(path))
    (note,) = AnkiPackageReader().read(str(path)).notes
    assert note.front == "The [organelle] makes & stores ATP."
    assert note.back == "The mitochondrion makes & stores ATP.\nExtra: energy"
    assert note.statement == "The mitochondrion makes & stores ATP."
    assert note.deck == "Biology" and note.reviews == ()


async def test_the_window_imports_a_deck_over_http(tmp_path):
    deck = write_deck(tmp_path / "spanish.apkg")
    async with scripted_app(None) as (api, runtime):
        r = await api.http.post("/api/graph/import", json={"path": str(deck), "embed": False})
        assert r.status_code == 202, r.text
        await finished(runtime.library.import_run(r.json()["run_id"]))
        run = (await api.http.get(f"/api/graph/import/{r.json()['run_id']}")).json()
        assert run["status"] == "done", run
        assert run["report"]["anki"]["cards_queued"] == 3 and run["report"]["material"] is None
        bad = tmp_path / "broken.apkg"
        bad.write_bytes(b"PK\x03\x04 torn")
        r = await api.http.post("/api/graph/import", json={"path": str(bad), "embed": False})
        await finished(runtime.library.import_run(r.json()["run_id"]))
        failed = (await api.http.get(f"/api/graph/import/{r.json()['run_id']}")).json()
        assert failed["status"] == "error" and "not an Anki package" in failed["error"]


def test_a_card_suspended_in_anki_arrives_out_of_review_and_stays_back_once_put_back(
        tmp_path, capsys) -> None:
    deck = altered_deck(tmp_path / "spanish.apkg", "update cards set queue = -1 where nid = "
                        "(select id from notes where guid = 'g-perro')")
    assert main(["import", str(deck), "--json", "--no-embed"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["anki"]["cards_suspended"] == 1 and report["anki"]["cards_queued"] == 3
    dog = node_id_for("Spanish for dog? — el perro [sound: perro.mp3]")
    store = JsonlLearnerStore(data_dir() / "learner")
    (held,) = store.suspensions().records
    assert (held.node_id, held.suspended) == (dog, True)
    assert main(["review", "--json"]) == 0
    queue = json.loads(capsys.readouterr().out)
    assert dog not in [d["node_id"] for d in queue["due"]]
    assert [c["node_id"] for c in queue["suspended"]] == [dog]

    # Put back here, it stays back when the same deck is imported again.
    store.append_suspensions([CardSuspended(id="sus_back", node_id=dog, suspended=False,
                                            at=datetime.now(UTC))])
    assert main(["import", str(deck), "--json", "--no-embed"]) == 0
    capsys.readouterr()
    assert len(store.suspensions().records) == 2
    assert main(["review", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["suspended"] == []
