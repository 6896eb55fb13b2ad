"""A re-export writes only what changed, held against the official ``anki`` package's own
importer: Studyhall's deck imported into a real collection, then exported again and imported
again — 0 notes updated (before, each note's new modification time made Anki update all)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from studyhall.desktop.cli import main

from tests.support.export_graph import seed

pytest.importorskip("anki")


def import_into(col, package: Path):
    from anki.import_export_pb2 import ImportAnkiPackageOptions, ImportAnkiPackageRequest

    return col.import_anki_package(ImportAnkiPackageRequest(
        package_path=str(package), options=ImportAnkiPackageOptions(
            with_scheduling=True, update_notes=0, update_notetypes=0))).log


def test_a_re_export_imports_into_anki_with_nothing_updated(tmp_path):
    from anki.collection import Collection

    data = Path(os.environ["STUDYHALL_DATA_DIR"])
    seed(data)
    (tmp_path / "anki").mkdir()
    col = Collection(str(tmp_path / "anki" / "collection.anki2"))
    try:
        first = tmp_path / "first.apkg"
        assert main(["export", "anki", "-o", str(first)]) == 0
        log = import_into(col, first)
        assert (len(log.new), len(log.updated)) == (3, 0)
        time.sleep(1.1)  # a later second: a stamp "now" would be newer than the first
        again = tmp_path / "again.apkg"
        assert main(["export", "anki", "-o", str(again)]) == 0
        log = import_into(col, again)
        assert (len(log.new), len(log.updated), len(log.duplicate)) == (0, 0, 3)
        assert col.note_count() == 3
    finally:
        col.close()


def test_an_unreadable_note_times_record_stamps_every_note_and_starts_again(tmp_path):
    from studyhall.adapters.export.anki_note_times import NoteTimes
    from studyhall.core.library.export.anki_notes import AnkiNote

    record = tmp_path / "times.json"
    record.write_bytes(b"\x00{not json")
    note = AnkiNote("n1", "Front", "Back", "", ("studyhall",))
    times = NoteTimes(record)
    assert times.stamps([("g1", note)], 100) == {"g1": 100}  # unreadable: stamped now
    assert times.stamps([("g1", note)], 200) == {"g1": 100}  # kept again from here on
    changed = note._replace(back="Back, edited")
    assert times.stamps([("g1", changed)], 300) == {"g1": 300}


def test_a_card_out_of_review_here_arrives_suspended_in_anki(tmp_path):
    from anki.collection import Collection
    from studyhall.adapters.store import JsonlLearnerStore
    from studyhall.core.contracts.learner import CardSuspended

    from tests.support.export_graph import AT

    data = Path(os.environ["STUDYHALL_DATA_DIR"])
    seed(data)
    JsonlLearnerStore(data / "learner").append_suspensions(
        [CardSuspended(id="sus_1", node_id="n_code", suspended=True, at=AT)])
    (tmp_path / "anki").mkdir()
    col = Collection(str(tmp_path / "anki" / "collection.anki2"))
    try:
        package = tmp_path / "deck.apkg"
        assert main(["export", "anki", "-o", str(package)]) == 0
        assert len(import_into(col, package).new) == 3
        queues = {text: queue for text, queue in col.db.all(
            "select notes.flds, cards.queue from cards join notes on notes.id = cards.nid")}
        suspended = [text for text, queue in queues.items() if queue == -1]
        assert len(suspended) == 1 and "len(xs)" in suspended[0]  # Anki's own "Suspended"
    finally:
        col.close()
