"""Malformed and hostile Anki decks: each is refused whole naming what is wrong (exit 1 from
``studyhall import``, an import run that ends in that error over HTTP), nothing written; a
note's NULL fields read as empty; a huge field is streamed past (memory stays bounded), cut,
and the cut is in the report."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from studyhall.adapters.sources.anki_package import AnkiPackageReader
from studyhall.adapters.store import JsonlGraphStore, JsonlLearnerStore
from studyhall.core.errors import InvalidInput
from studyhall.desktop.cli import main

from tests.support.anki_deck import (
    altered_deck,
    rezip,
    without_constraints,
    write_deck,
)
from tests.support.session_api import scripted_app

CHECK = "Tools → Check Database"


def _data_dir() -> Path:
    return Path(os.environ["STUDYHALL_DATA_DIR"])


def _nothing_written() -> bool:
    graph = JsonlGraphStore(_data_dir() / "graph")
    learner = JsonlLearnerStore(_data_dir() / "learner")
    return (list(graph.propositions().records), list(learner.grades().records),
            list(learner.flashcards().records)) == ([], [], [])


def _decks_json(value: object) -> tuple[str, tuple[str]]:
    return ("update col set decks = ?", (json.dumps(value),))


def _flag_members(path: Path, *, flags: int = 0, method: int | None = None) -> Path:
    """The package with each member's zip headers patched: general-purpose ``flags`` OR-ed in
    (0x1: encrypted) or the compression ``method`` replaced (9: Deflate64, which zipfile lacks)."""
    data = bytearray(path.read_bytes())
    for signature, flag_at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        at = data.find(signature)
        while at >= 0:
            (old,) = struct.unpack_from("<H", data, at + flag_at)
            struct.pack_into("<H", data, at + flag_at, old | flags)
            if method is not None:
                struct.pack_into("<H", data, at + flag_at + 2, method)
            at = data.find(signature, at + 4)
    path.write_bytes(bytes(data))
    return path


def _no_tables(p: Path) -> Path:
    import sqlite3

    db = p.parent / "only-col.anki2"
    with sqlite3.connect(db) as conn:
        conn.execute("create table col (decks text)")
    conn.close()
    return rezip(p, {"collection.anki2": db.read_bytes()})


def _schema_not_utf8(p: Path) -> Path:
    # sqlite's own error message then holds bytes that are not UTF-8 (found by fuzzing)
    rename = ("update sqlite_master set sql = cast(? as text), name = cast(? as text) "
              "where name = 'notes'")
    return altered_deck(p, "pragma writable_schema = on",
                        (rename, (b"CREATE TABLE notes (id\xff, \xff))", b"n\xff")))


def _patch(path: Path, signature: bytes, offset: int, data: bytes) -> Path:
    """The package with ``data`` written at ``offset`` into its first ``signature`` header."""
    raw = bytearray(path.read_bytes())
    at = raw.index(signature) + offset
    raw[at:at + len(data)] = data
    path.write_bytes(bytes(raw))
    return path


def _deflate_garbage(p: Path) -> Path:
    """The collection member's deflate stream overwritten (zlib's own error, not zipfile's)."""
    deck = write_deck(p)
    raw = deck.read_bytes()
    at = raw.index(b"PK\x03\x04")
    name_len, extra_len = struct.unpack_from("<HH", raw, at + 26)
    return _patch(deck, b"PK\x03\x04", 30 + name_len + extra_len, b"\xff" * 64)


MALFORMED = [
    pytest.param(lambda p: altered_deck(p, _decks_json({"abc": {"name": "Spanish"}})),
                 "deck id that is not a number ('abc')", id="deck-key-not-a-number"),
    pytest.param(lambda p: altered_deck(p, _decks_json([{"id": 1, "name": "Spanish"}])),
                 "is a JSON list, not an object", id="decks-a-json-list"),
    pytest.param(lambda p: altered_deck(p, _decks_json({"1": "Spanish"})),
                 "deck '1' in its deck list (col.decks) is not a JSON object",
                 id="deck-not-an-object"),
    pytest.param(lambda p: altered_deck(p, "update col set decks = '{not json'"),
                 "(col.decks) is not readable JSON", id="decks-garbage-json"),
    pytest.param(lambda p: altered_deck(p, *without_constraints("cards"),
                                        "update cards set ord = NULL"),
                 "has nothing (NULL) as its template number (ord)", id="card-ord-null"),
    pytest.param(lambda p: altered_deck(p, *without_constraints("cards"),
                                        "update cards set nid = 'a note'"),
                 "has text as its note (nid)", id="card-note-not-a-number"),
    pytest.param(lambda p: altered_deck(p, "drop table notes"),
                 "missing Anki's tables (notes)", id="no-notes-table"),
    pytest.param(_no_tables, "missing Anki's tables (cards, notes)", id="only-col"),
    pytest.param(lambda p: altered_deck(p, "alter table notes drop column flds"),
                 "not a readable Anki collection (no such column: flds)", id="no-flds-column"),
    pytest.param(lambda p: rezip(p, {"collection.anki2": b"not sqlite at all" * 100}),
                 "not a readable Anki collection", id="not-sqlite"),
    pytest.param(lambda p: rezip(p, {"notes.txt": b"hello", "media": b"{}"}),
                 "holds no Anki collection", id="zip-without-collection"),
    pytest.param(_schema_not_utf8, "not a readable Anki collection", id="schema-not-utf8"),
    pytest.param(_deflate_garbage, "is damaged", id="compressed-stream-garbage"),
    pytest.param(lambda p: _patch(write_deck(p), b"PK\x03\x04", 30, b"X"), "is damaged",
                 id="header-name-differs"),
    pytest.param(lambda p: _flag_members(write_deck(p), flags=0x1), "is damaged",
                 id="encrypted-zip-member"),
    pytest.param(lambda p: _flag_members(write_deck(p), method=9), "is damaged",
                 id="unsupported-zip-method"),
]


@pytest.mark.parametrize(("make", "says"), MALFORMED)
def test_a_malformed_deck_exits_1_naming_what_is_wrong(tmp_path, capsys, make, says):
    deck = make(tmp_path / "bad.apkg")
    assert main(["import", str(deck), "--no-embed"]) == 1  # not 70 ("a bug")
    err = capsys.readouterr().err
    assert says in err, err
    assert "unexpected" not in err.lower() and "Traceback" not in err
    assert _nothing_written()


def test_the_collections_anki_would_not_write_say_how_to_repair_them(tmp_path):
    deck = altered_deck(tmp_path / "bad.apkg", _decks_json([]))
    with pytest.raises(InvalidInput, match="Check Database") as caught:
        AnkiPackageReader().read(str(deck))
    assert str(caught.value) == (
        "bad.apkg is not a collection Anki writes: its deck list (col.decks) is a JSON list, not "
        "an object of decks by id. In Anki, run Tools → Check Database, then export the deck "
        "again.")


async def test_a_malformed_deck_over_http_ends_its_run_with_the_reason(tmp_path):
    deck = altered_deck(tmp_path / "bad.apkg", *without_constraints("cards"),
                        "update cards set ord = NULL")
    async with scripted_app(None) as (api, runtime):
        r = await api.http.post("/api/graph/import", json={"path": str(deck), "embed": False})
        assert r.status_code == 202, r.text
        await runtime.library.wait_for_import(r.json()["run_id"])
        run = (await api.http.get(f"/api/graph/import/{r.json()['run_id']}")).json()
        assert run["status"] == "error"
        assert "its template number (ord), not a number" in run["error"] and CHECK in run["error"]
    assert _nothing_written()


def test_garbage_in_parts_the_import_does_not_read_is_no_reason_to_refuse(tmp_path, capsys):
    # Note types and the collection's config are not used (fields are read by position):
    # a learner would rather have their cards than a refusal over them.
    deck = altered_deck(tmp_path / "odd.apkg", "update col set models = '{not json', "
                        "conf = '[1, 2'")
    assert main(["import", str(deck), "--json", "--no-embed"]) == 0
    assert json.loads(capsys.readouterr().out)["imported"] == 3


def test_null_fields_tags_and_guid_read_as_empty_never_as_none(tmp_path):
    deck = altered_deck(tmp_path / "nulls.apkg", *without_constraints("notes"),
                        "update notes set tags = NULL, guid = NULL where guid = 'g-hola'",
                        ("update notes set flds = ? where guid = 'g-gato'", ("\x1fel gato",)),
                        "update notes set flds = NULL where guid = 'g-perro'")
    package = AnkiPackageReader().read(str(deck))
    (hola,) = [n for n in package.notes if n.front == "What does hola mean?"]
    assert hola.tags == () and hola.guid.startswith("note-")  # its note id stands in
    (gato,) = [n for n in package.notes if n.back == "el gato"]
    assert gato.front == "el gato"  # an empty side shows the other
    assert [why for _, why in package.skipped] == ["the note's first two fields are empty"]
    assert not any("None" in f"{n.front}{n.back}{n.tags}" for n in package.notes)


def test_text_that_is_not_utf8_reads_with_replacement_characters(tmp_path):
    deck = altered_deck(tmp_path / "latin1.apkg", (
        "update notes set flds = cast(? as text) where guid = 'g-hola'",
        ("Qu\xe9 tal?\x1fHow are you?".encode("latin-1"),)))
    (note,) = [n for n in AnkiPackageReader().read(str(deck)).notes if n.back == "How are you?"]
    assert note.front == "Qu\ufffd tal?"


HUGE = 64 << 20  # characters in one field: the old reader held ~20× this


@pytest.fixture(scope="module")
def huge_deck(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("huge")
    front = "How big can a field be? " + "x" * HUGE
    return altered_deck(folder / "huge.apkg", (
        "update notes set flds = ? where guid = 'g-hola'", (front + "\x1fThis big.",)))


def test_a_huge_field_is_cut_and_the_cut_is_in_the_report(huge_deck, capsys):
    assert main(["import", str(huge_deck), "--json", "--no-embed"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["imported"] == 3
    (cut,) = report["cut"]
    assert cut["path"] == "note g-hola"
    assert f"field 1 holds {HUGE + 24:,} characters: its first 65,536 were read" in cut["reason"]
    (card,) = [c for c in JsonlLearnerStore(_data_dir() / "learner").flashcards().records
               if c.front.startswith("How big")]
    assert card.back == "This big."  # the field after the huge one is read too
    assert len(card.front) == 4000


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_maxrss in KiB: Linux")
def test_a_huge_field_is_streamed_past_with_bounded_memory(huge_deck):
    # In a child process, so sqlite's own memory counts too: the peak RSS while reading a deck
    # with a 64 MiB field grows by less than half the field (it is never loaded whole; the
    # old reader grew by ~20× the field, over 1 GiB here).
    probe = (
        "import resource, sys\n"
        "from studyhall.adapters.sources.anki_package import AnkiPackageReader\n"
        "import nh3, zstandard\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "package = AnkiPackageReader().read(sys.argv[1])\n"
        "after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "print(len(package.notes), (after - before) * 1024)\n")
    out = subprocess.run([sys.executable, "-c", probe, str(huge_deck)], capture_output=True,
                         text=True, check=True, timeout=300).stdout.split()
    assert out[0] == "3"
    assert int(out[1]) < HUGE // 2, f"the read grew the process by {int(out[1]) >> 20} MiB"


def test_a_zip_member_whose_checksum_is_wrong_is_refused(tmp_path):
    deck = write_deck(tmp_path / "liar.apkg")
    data = bytearray(deck.read_bytes())
    for signature, crc_at in ((b"PK\x03\x04", 14), (b"PK\x01\x02", 16)):
        at = data.find(signature)
        while at >= 0:
            struct.pack_into("<I", data, at + crc_at, 0xDEADBEEF)
            at = data.find(signature, at + 4)
    deck.write_bytes(bytes(data))
    with pytest.raises(InvalidInput, match="is damaged"):
        AnkiPackageReader().read(str(deck))


def _hostile_deck(path: Path, notes: int) -> Path:
    """``notes`` notes of repeated openers added to the test deck with SQL (genanki's own
    patterns take minutes on such fields)."""
    openers = ["{{c1::" * 10_000, "<img " * 12_000, "[sound:" * 9_000, "[[" * 30_000]
    note = ("insert into notes (id, guid, mid, mod, usn, tags, flds, sfld, csum, flags, data) "
            "select ?, ?, mid, mod, usn, '', ?, '', 0, 0, '' from notes limit 1")
    card = ("insert into cards (id, nid, did, ord, mod, usn, type, queue, due, ivl, factor, "
            "reps, lapses, left, odue, odid, flags, data) select ?, ?, did, 0, mod, usn, 0, 0, "
            "0, 0, 0, 0, 0, 0, 0, 0, 0, '' from cards limit 1")
    changes: list[tuple[str, tuple[object, ...]]] = []
    for n in range(notes):
        fields = f"card {n} {openers[n % 4]}\x1f{openers[(n + 1) % 4]} answer {n}"
        changes += [(note, (10_000 + n, f"g-hostile-{n}", fields)), (card, (20_000 + n, 10_000 + n))]
    return altered_deck(path, *changes)


async def test_health_answers_while_a_hostile_deck_imports(tmp_path):
    # 120 notes of repeated openers (60 KB fields): the old patterns took ~40 s for ONE such
    # cloze field, holding the GIL; now the whole read is ~1 s of short calls, and the server
    # answers between them. The 1 s bound is ~20× a quiet machine's worst answer.
    import asyncio
    import time

    deck = _hostile_deck(tmp_path / "hostile.apkg", 120)
    async with scripted_app(None) as (api, runtime):
        r = await api.http.post("/api/graph/import", json={"path": str(deck), "embed": False})
        assert r.status_code == 202, r.text
        run_id = r.json()["run_id"]
        slowest = 0.0
        while runtime.library.import_run(run_id).status == "running":
            started = time.perf_counter()
            assert (await api.http.get("/api/health")).status_code == 200
            slowest = max(slowest, time.perf_counter() - started)
            await asyncio.sleep(0.02)
        run = await runtime.library.wait_for_import(run_id)
        assert run.status == "done", run.error
        assert run.report is not None and run.report.imported == 123  # and the 3 usual
        assert slowest < 1.0, f"/api/health waited {slowest:.2f}s during the import"


def test_a_note_with_a_million_fields_reads_its_first_128(tmp_path):
    deck = altered_deck(tmp_path / "fields.apkg", (
        "update notes set flds = ? where guid = 'g-hola'",
        ("Many fields?\x1fYes" + "\x1f[sound:x.mp3]" * 1_000_000,)))
    package = AnkiPackageReader().read(str(deck))
    (note,) = [n for n in package.notes if n.guid == "g-hola"]
    assert (note.front, note.back, note.media) == ("Many fields?", "Yes", ("x.mp3",))
    why = "imported, cut: it has more than 128 fields: the rest were not read"
    assert package.cut == (("g-hola", why),)
