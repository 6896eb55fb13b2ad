"""Anki packages the tests make themselves: a real deck written by ``genanki``, then review
history (revlog rows) added to its collection with sqlite3 before it is zipped again — the same
deck as Anki 2.1.50+ exports it (``collection.anki21b``: the collection moved to schema 18 and
zstd-compressed, beside a dummy legacy collection) — and broken variants (not a zip, no
collection, missing tables, a path outside the deck, a bomb)."""

from __future__ import annotations

import json
import sqlite3
import zipfile
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import genanki
import zstandard

BASIC = genanki.Model(
    1_607_392_319, "Basic (test)",
    fields=[{"name": "Front"}, {"name": "Back"}],
    templates=[{"name": "Card 1", "qfmt": "{{Front}}", "afmt": "{{FrontSide}}<hr>{{Back}}"}])
NOTES = [  # (guid, front, back)
    ("g-hola", "What does <b>hola</b> mean?", "Hello<br>(a greeting)"),
    ("g-gato", "Spanish for <i>cat</i>?", 'el gato <img src="gato.jpg">'),
    ("g-perro", "Spanish for dog?", "el perro [sound:perro.mp3]"),
]
DAY = 86_400_000


def ms(at: datetime) -> int:
    return int(at.timestamp() * 1000)


# (note guid, revlog time, ease, type): answers a learner gave in Anki, plus one reschedule.
START = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
REVIEWS = [
    ("g-hola", ms(START), 3, 0),
    ("g-hola", ms(START) + 10 * 60_000, 3, 0),
    ("g-hola", ms(START) + 3 * DAY, 4, 1),
    ("g-hola", ms(START) + 12 * DAY, 1, 1),
    ("g-hola", ms(START) + 12 * DAY + 600_000, 3, 2),
    ("g-gato", ms(START) + DAY, 2, 0),
    ("g-gato", ms(START) + 2 * DAY, 0, 4),  # a manual reschedule: not an answer
]


def write_deck(path: Path, deck: str = "Languages::Spanish",
               reviews: Sequence[tuple[str, int, int, int]] = REVIEWS) -> Path:
    """A real .apkg (genanki) with ``reviews`` in its revlog."""
    made = genanki.Deck(2_059_400_110, deck)
    for guid, front, back in NOTES:
        made.add_note(genanki.Note(model=BASIC, fields=[front, back], guid=guid))
    raw = path.with_suffix(".raw.apkg")
    genanki.Package(made).write_to_file(str(raw))
    folder = path.parent / (path.stem + "-unzipped")
    with zipfile.ZipFile(raw) as z:
        z.extractall(folder)
    db = folder / "collection.anki2"
    with sqlite3.connect(db) as conn:
        cards = dict(conn.execute(
            "select notes.guid, cards.id from cards join notes on notes.id = cards.nid"))
        conn.executemany(
            "insert into revlog (id, cid, usn, ease, ivl, lastIvl, factor, time, type) "
            "values (?, ?, -1, ?, 1, 0, 2500, 6000, ?)",
            [(at, cards[guid], ease, kind) for guid, at, ease, kind in reviews])
    rezip(path, {name.name: name.read_bytes() for name in folder.iterdir()})
    return path


def rezip(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return path


def members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {name: z.read(name) for name in z.namelist()}


# Schema 18 as Anki's rslib creates it (storage/upgrades/schema14, 15, 17 and 18_upgrade.sql):
# decks, note types and config leave ``col``'s JSON columns for tables of their own.
SCHEMA_18 = """
CREATE TABLE deck_config (id integer PRIMARY KEY NOT NULL, name text NOT NULL COLLATE unicase,
  mtime_secs integer NOT NULL, usn integer NOT NULL, config blob NOT NULL);
CREATE TABLE config (key text NOT NULL PRIMARY KEY, usn integer NOT NULL,
  mtime_secs integer NOT NULL, val blob NOT NULL) WITHOUT ROWID;
CREATE TABLE tags (id integer PRIMARY KEY NOT NULL, name text NOT NULL COLLATE unicase,
  usn integer NOT NULL, config blob NOT NULL);
CREATE TABLE fields (ntid integer NOT NULL, ord integer NOT NULL,
  name text NOT NULL COLLATE unicase, config blob NOT NULL, PRIMARY KEY (ntid, ord)) WITHOUT ROWID;
CREATE UNIQUE INDEX idx_fields_name_ntid ON fields (name, ntid);
CREATE TABLE templates (ntid integer NOT NULL, ord integer NOT NULL,
  name text NOT NULL COLLATE unicase, mtime_secs integer NOT NULL, usn integer NOT NULL,
  config blob NOT NULL, PRIMARY KEY (ntid, ord)) WITHOUT ROWID;
CREATE UNIQUE INDEX idx_templates_name_ntid ON templates (name, ntid);
CREATE INDEX idx_templates_usn ON templates (usn);
CREATE TABLE notetypes (id integer NOT NULL PRIMARY KEY, name text NOT NULL COLLATE unicase,
  mtime_secs integer NOT NULL, usn integer NOT NULL, config blob NOT NULL);
CREATE UNIQUE INDEX idx_notetypes_name ON notetypes (name);
CREATE INDEX idx_notetypes_usn ON notetypes (usn);
CREATE TABLE decks (id integer PRIMARY KEY NOT NULL, name text NOT NULL COLLATE unicase,
  mtime_secs integer NOT NULL, usn integer NOT NULL, common blob NOT NULL, kind blob NOT NULL);
CREATE UNIQUE INDEX idx_decks_name ON decks (name);
CREATE INDEX idx_notes_mid ON notes (mid);
CREATE INDEX idx_cards_odid ON cards (odid) WHERE odid != 0;
ALTER TABLE graves RENAME TO graves_old;
CREATE TABLE graves (oid integer NOT NULL, type integer NOT NULL, usn integer NOT NULL,
  PRIMARY KEY (oid, type)) WITHOUT ROWID;
INSERT OR IGNORE INTO graves (oid, type, usn) SELECT oid, type, usn FROM graves_old;
DROP TABLE graves_old;
CREATE INDEX idx_graves_pending ON graves (usn);
"""


def _unicase(a: str, b: str) -> int:
    """Anki's "unicase" collation (case-folded comparison): its indexes need it to be written."""
    return (a.casefold() > b.casefold()) - (a.casefold() < b.casefold())


def to_schema_18(legacy: bytes, folder: Path) -> bytes:
    """A schema-11 collection (genanki's) moved to schema 18 the way Anki's upgrade does:
    decks into ``decks`` (nesting "\\x1f"-separated), note types into ``notetypes`` /
    ``fields`` / ``templates``, config into ``config``; ``col``'s JSON columns emptied.
    Protobuf columns hold the empty message (every setting at its default)."""
    db = folder / "collection-v18.sqlite"
    db.write_bytes(legacy)
    with sqlite3.connect(db) as conn:
        conn.create_collation("unicase", _unicase)
        conf, models, decks, dconf = (json.loads(raw) for raw in conn.execute(
            "select conf, models, decks, dconf from col").fetchone())
        conn.executescript(SCHEMA_18)
        conn.executemany("insert into config values (?, 0, 0, ?)",
                         [(key, json.dumps(val).encode()) for key, val in conf.items()])
        conn.executemany("insert into deck_config values (?, ?, 0, 0, x'')",
                         [(int(i), c["name"]) for i, c in dconf.items()])
        conn.executemany("insert into decks values (?, ?, 0, 0, x'', x'')",
                         [(int(i), d["name"].replace("::", "\x1f")) for i, d in decks.items()])
        for ntid, model in models.items():
            conn.execute("insert into notetypes values (?, ?, 0, 0, x'')",
                         (int(ntid), model["name"]))
            conn.executemany("insert into fields values (?, ?, ?, x'')",
                             [(int(ntid), f["ord"], f["name"]) for f in model["flds"]])
            conn.executemany("insert into templates values (?, ?, ?, 0, 0, x'')",
                             [(int(ntid), t["ord"], t["name"]) for t in model["tmpls"]])
        conn.execute("update col set ver = 18, conf = '', models = '', decks = '', dconf = '', "
                     "tags = ''")
    conn.close()
    return db.read_bytes()


def write_modern_deck(path: Path, deck: str = "Languages::Spanish",
                      reviews: Sequence[tuple[str, int, int, int]] = REVIEWS) -> Path:
    """The deck ``write_deck`` makes, as Anki 2.1.50+ exports it by default (``modernize``)."""
    return modernize(write_deck(path.with_suffix(".legacy.apkg"), deck, reviews), path)


def modernize(legacy: Path, path: Path) -> Path:
    """The legacy package ``legacy`` as Anki 2.1.50+ writes it: its collection at schema 18,
    zstd-compressed as ``collection.anki21b``, beside a dummy ``collection.anki2`` that asks for
    a newer Anki; a ``meta`` (protobuf: version 3, "latest") and a zstd media list (an empty
    protobuf)."""
    files = members(legacy)
    folder = path.parent / (path.stem + "-v18")
    folder.mkdir(exist_ok=True)
    modern = to_schema_18(files["collection.anki2"], folder)
    dummy = genanki.Deck(1, "Default")
    dummy.add_note(genanki.Note(model=BASIC, guid="g-update", fields=[
        "Please update to the latest Anki version, then import the .colpkg/.apkg file again.",
        "This file needs a newer Anki."]))
    genanki.Package(dummy).write_to_file(str(folder / "dummy.apkg"))
    zstd = zstandard.ZstdCompressor()
    return rezip(path, {"collection.anki2": members(folder / "dummy.apkg")["collection.anki2"],
                        "collection.anki21b": zstd.compress(modern),
                        "media": zstd.compress(b""), "meta": b"\x08\x03"})


def altered_deck(path: Path, *changes: str | tuple[str, Sequence[object]]) -> Path:
    """``write_deck``'s deck with its collection changed by SQL: each change a statement, or a
    statement with its parameters (a malformed or hostile collection, made the way one is)."""
    deck = write_deck(path)
    files = members(deck)
    db = path.parent / (path.stem + "-altered.anki2")
    db.write_bytes(files["collection.anki2"])
    conn = sqlite3.connect(db)
    try:
        for change in changes:
            statement, parameters = (change, ()) if isinstance(change, str) else change
            conn.execute(statement, parameters)
        conn.commit()
    finally:
        conn.close()
    return rezip(deck, {**files, "collection.anki2": db.read_bytes()})


def without_constraints(table: str) -> list[str]:
    """SQL that rebuilds ``table`` without its NOT NULL constraints (a hand-made collection)."""
    return [f"create table {table}_loose as select * from {table}", f"drop table {table}",
            f"alter table {table}_loose rename to {table}"]
