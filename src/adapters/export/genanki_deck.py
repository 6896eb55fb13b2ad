"""``GenankiDeckWriter``: the ``DeckWriter`` port — an export's Anki notes as a real Anki package,
made with ``genanki`` (imported on the first write, not at start-up).

One note type (Front / Back / Source) with a fixed model id; each note's GUID is derived from
its node id, so importing a re-export into Anki updates the learner's notes (and keeps their
review history) instead of adding duplicates; a note unchanged since the last export keeps
that export's modification time (``anki_note_times.py``), so Anki updates only what changed. The
package is written to a temporary file beside the target and renamed over it: a crash or a kill
never leaves a half-written deck.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from studyhall.adapters.export.anki_note_times import NoteTimes
from studyhall.adapters.export.partial_files import replace_with, sweep_partials
from studyhall.core.library.export.anki_notes import AnkiNote

# Fixed for good: Anki recognises the note type by this id (a new id would be a new note type
# beside the learner's old one on every export).
MODEL_ID = 1_741_203_917
MODEL_NAME = "Studyhall card"
_CSS = """
.card { font-family: system-ui, sans-serif; font-size: 20px; text-align: left;
        color: black; background-color: white; }
pre { background: #f4f4f4; padding: 8px; overflow-x: auto; }
code { font-family: ui-monospace, monospace; font-size: 0.9em; }
blockquote { border-left: 3px solid #aaa; margin: 12px 0; padding-left: 10px; color: #444; }
.source { font-size: 14px; color: #666; margin-top: 16px; }
.topic { font-size: 14px; color: #666; margin-bottom: 8px; }
"""


def _model() -> Any:
    import genanki

    return genanki.Model(
        MODEL_ID, MODEL_NAME,
        fields=[{"name": "Front"}, {"name": "Back"}, {"name": "Source"}],
        templates=[{
            "name": "Recall",
            "qfmt": "{{Front}}",
            "afmt": '{{FrontSide}}<hr id="answer">{{Back}}'
                    '<div class="source">{{Source}}</div>',
        }],
        css=_CSS,
    )


def deck_id(name: str) -> int:
    """A stable deck id per deck name (Anki puts a re-export's new notes in the same deck)."""
    return int.from_bytes(hashlib.sha256(f"studyhall deck {name}".encode()).digest()[:6], "big")


def note_guid(node_id: str) -> str:
    import genanki

    return str(genanki.guid_for("studyhall node", node_id))


def build_package(notes: Sequence[AnkiNote], deck_name: str) -> Any:
    import genanki

    model = _model()
    deck = genanki.Deck(deck_id(deck_name), deck_name)
    for note in notes:
        made = genanki.Note(model=model, fields=[note.front, note.back, note.source],
                            tags=list(note.tags), guid=note_guid(note.key))
        for card in made.cards if note.suspended else ():
            card.suspend = True  # queue -1: Anki's own "Suspended"
        deck.add_note(made)
    return genanki.Package(deck)


def write_apkg(notes: Sequence[AnkiNote], deck_name: str, target: Path,
               times: NoteTimes | None = None) -> int:
    """Write the package to ``target`` atomically; the number of notes written."""
    package = build_package(notes, deck_name)
    times = times or NoteTimes(None)
    target = target.expanduser()
    # Only this target's partials, left by a run that was killed mid-write: the folder may be
    # the learner's Downloads, and nothing else in it is touched.
    sweep_partials(target.parent, lambda name: name == target.name)
    import time

    kept = times.stamps([(note_guid(n.key), n) for n in notes], int(time.time()))
    replace_with(target, lambda partial: _write_zip(_KeptTimes(package, kept), partial))
    return len(notes)


class GenankiDeckWriter:
    """The ``DeckWriter`` port on disk. ``note_times``: where the notes' last export times are
    kept (None: every note is stamped at each export)."""

    def __init__(self, note_times: Path | None = None) -> None:
        self._times = NoteTimes(note_times)

    def write(self, notes: Sequence[AnkiNote], deck_name: str, target: str) -> int:
        return write_apkg(notes, deck_name, Path(target), self._times)

    def package(self, notes: Sequence[AnkiNote], deck_name: str) -> bytes:
        return apkg_bytes(notes, deck_name, self._times)


def apkg_bytes(notes: Sequence[AnkiNote], deck_name: str, times: NoteTimes | None = None) -> bytes:
    """The package as bytes (the HTTP download), written through the same temporary file."""
    with tempfile.TemporaryDirectory(prefix="studyhall-apkg-") as tmp:
        target = Path(tmp) / "deck.apkg"
        write_apkg(notes, deck_name, target, times)
        return target.read_bytes()


class _KeptTimes:
    """The package, with each note's modification time the kept one (``anki_note_times.py``)."""

    def __init__(self, package: Any, mods: dict[str, int]) -> None:
        self._package = package
        self._mods = mods

    def write_to_db(self, cursor: Any, now: float, ids: Any) -> None:
        self._package.write_to_db(cursor, now, ids)
        cursor.executemany("update notes set mod = ? where guid = ?",
                           [(mod, guid) for guid, mod in self._mods.items()])


def _write_zip(package: Any, out: Path) -> None:
    """``genanki.Package.write_to_file`` without its leaked temporary database: the collection
    is built in our own temporary folder and the zip is flushed to disk before the rename."""
    import itertools
    import sqlite3  # here, not at import: the app builds this writer at start-up
    import time

    with tempfile.TemporaryDirectory(prefix="studyhall-anki-") as tmp:
        db = Path(tmp) / "collection.anki2"
        conn = sqlite3.connect(db)
        try:
            now = time.time()
            package.write_to_db(conn.cursor(), now, itertools.count(int(now * 1000)))
            conn.commit()
        finally:
            conn.close()
        with open(out, "wb") as raw:
            with zipfile.ZipFile(raw, "w", zipfile.ZIP_DEFLATED) as zf:
                zf.write(db, "collection.anki2")
                zf.writestr("media", json.dumps({}))
            raw.flush()
            os.fsync(raw.fileno())
