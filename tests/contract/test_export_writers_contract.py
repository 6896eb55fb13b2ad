"""The export ports' contract, held against the in-memory fakes and the writers on disk:

- ``DeckWriter``: what ``write`` puts at a target reads back as the same notes (fields, tags,
  one stable GUID per node key, so a re-export updates Anki's notes); ``package`` gives the same
  deck as bytes; a second write replaces the deck whole.
- ``VaultWriter``: ``write`` makes the folder hold exactly the export's notes — unchanged ones
  are not rewritten, the export's own stale notes are removed, a learner's own note never is;
  ``refuse_unsafe`` turns down an imported vault (or a folder inside one), an Obsidian vault and
  a folder of notes the export did not write, and lets an empty or export-only folder through.

And what only the disk can show: a write that fails mid-way leaves the old deck or note whole.
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from studyhall.adapters.export import genanki_deck, partial_files
from studyhall.adapters.export.genanki_deck import GenankiDeckWriter
from studyhall.adapters.export.markdown_folder import MarkdownFolderWriter
from studyhall.adapters.fakes import InMemoryDeckWriter, InMemoryVaultWriter
from studyhall.core.errors import InvalidInput
from studyhall.core.library.export.anki_notes import AnkiNote
from studyhall.core.library.export.marker import MARK_KEY, MARK_VALUE
from studyhall.core.ports.exports import DeckWriter, VaultWriter

Read = tuple[str, str, str, str, tuple[str, ...]]  # guid-or-key, front, back, source, tags


def _apkg_notes(data: bytes) -> list[Read]:
    """The notes of a real ``.apkg``, read with sqlite the way Anki stores them."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "deck.apkg"
        path.write_bytes(data)
        with zipfile.ZipFile(path) as z:
            z.extract("collection.anki2", tmp)
        conn = sqlite3.connect(Path(tmp) / "collection.anki2")
        try:
            rows = conn.execute("select guid, flds, tags from notes order by id").fetchall()
        finally:
            conn.close()
    out: list[Read] = []
    for guid, flds, tags in rows:
        front, back, source = flds.split("\x1f")
        out.append((guid, front, back, source, tuple(tags.split())))
    return out


def _fake_notes(data: bytes) -> list[Read]:
    deck = json.loads(data)
    return [(n["key"], n["front"], n["back"], n["source"], tuple(n["tags"])) for n in deck["notes"]]


@dataclass
class DeckCase:
    writer: DeckWriter
    target: str
    read_target: Callable[[], bytes]
    notes_of: Callable[[bytes], list[Read]]


@pytest.fixture(params=["in-memory", "genanki"])
def deck(request: pytest.FixtureRequest, tmp_path: Path) -> DeckCase:
    if request.param == "in-memory":
        fake = InMemoryDeckWriter()
        return DeckCase(fake, "decks/biology.apkg", lambda: fake.files["decks/biology.apkg"],
                        _fake_notes)
    target = tmp_path / "biology.apkg"
    return DeckCase(GenankiDeckWriter(), str(target), target.read_bytes, _apkg_notes)


NOTES = [
    AnkiNote("n-cell", "What is a cell?", "The unit of life.", "<a>Biology.md</a>", ("biology",)),
    AnkiNote("n-atp", "What is ATP?", "The cell's energy carrier.", "", ("biology", "energy")),
]


def test_a_written_deck_reads_back_as_its_notes(deck: DeckCase) -> None:
    assert deck.writer.write(NOTES, "Biology", deck.target) == 2
    read = deck.notes_of(deck.read_target())
    assert [(r[1], r[2], r[3], r[4]) for r in read] == [
        (n.front, n.back, n.source, n.tags) for n in NOTES]
    assert len({r[0] for r in read}) == 2  # one identity per node


def test_a_re_export_keeps_each_notes_identity_and_replaces_the_deck(deck: DeckCase) -> None:
    deck.writer.write(NOTES, "Biology", deck.target)
    first = {r[1]: r[0] for r in deck.notes_of(deck.read_target())}
    edited = [NOTES[0]._replace(back="The smallest unit of life.")]
    assert deck.writer.write(edited, "Biology", deck.target) == 1
    again = deck.notes_of(deck.read_target())
    assert [(r[0], r[2]) for r in again] == [(first["What is a cell?"], "The smallest unit of life.")]


def test_package_is_the_same_deck_as_bytes(deck: DeckCase) -> None:
    data = deck.writer.package(NOTES, "Biology")
    assert [r[1:] for r in deck.notes_of(data)] == [
        (n.front, n.back, n.source, n.tags) for n in NOTES]


def test_a_deck_write_that_fails_midway_leaves_the_old_deck_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "biology.apkg"
    writer = GenankiDeckWriter()
    writer.write(NOTES, "Biology", str(target))
    before = target.read_bytes()

    def broken(package: object, out: Path) -> None:
        out.write_bytes(b"PK half a zip")
        raise OSError("disk full")

    monkeypatch.setattr(genanki_deck, "_write_zip", broken)
    with pytest.raises(OSError):
        writer.write(NOTES[:1], "Biology", str(target))
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["biology.apkg"]  # no partial left beside it


# --- VaultWriter ---------------------------------------------------------------------------

MARK = f"---\n{MARK_KEY}: {MARK_VALUE}\n"


def exported(body: str) -> str:
    return f"{MARK}---\n\n{body}\n"


@dataclass
class VaultCase:
    writer: VaultWriter
    folder: str
    files: Callable[[], dict[str, str]]  # the folder's .md notes, name -> text
    put: Callable[[str, str], None]  # a file the learner has in the folder
    make_obsidian: Callable[[], None]


@pytest.fixture(params=["in-memory", "folder"])
def vault(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[VaultCase]:
    if request.param == "in-memory":
        fake = InMemoryVaultWriter()
        folder = "/exports/biology"

        def put(name: str, text: str) -> None:
            fake.folders.setdefault(folder, {})[name] = text

        yield VaultCase(fake, folder, lambda: dict(fake.folders.get(folder, {})), put,
                        lambda: fake.obsidian.add(folder))
        return
    where = tmp_path / "biology"

    def files() -> dict[str, str]:
        return {p.name: p.read_text("utf-8") for p in sorted(where.glob("*.md"))}

    def put(name: str, text: str) -> None:
        where.mkdir(exist_ok=True)
        (where / name).write_text(text, "utf-8")

    yield VaultCase(MarkdownFolderWriter(), str(where), files, put,
                    lambda: (where / ".obsidian").mkdir(parents=True))


def test_a_written_folder_holds_exactly_the_exports_notes(vault: VaultCase) -> None:
    notes = {"Cell.md": exported("# Cell"), "ATP.md": exported("# ATP")}
    report = vault.writer.write(vault.folder, notes)
    assert (report.notes, report.written, report.unchanged, report.removed) == (2, 2, 0, 0)
    assert vault.files() == notes


def test_a_rewrite_touches_only_what_changed_and_removes_only_its_own_stale_notes(
        vault: VaultCase) -> None:
    vault.writer.write(vault.folder, {"Cell.md": exported("# Cell"), "ATP.md": exported("# ATP")})
    vault.put("Mine.md", "# My own note\n")  # the learner's, added after the export
    report = vault.writer.write(vault.folder, {"Cell.md": exported("# Cell, edited")})
    assert (report.notes, report.written, report.unchanged, report.removed) == (1, 1, 0, 1)
    assert vault.files() == {"Cell.md": exported("# Cell, edited"), "Mine.md": "# My own note\n"}
    same = vault.writer.write(vault.folder, {"Cell.md": exported("# Cell, edited")})
    assert (same.written, same.unchanged) == (0, 1)


def test_an_empty_or_export_only_folder_is_safe(vault: VaultCase) -> None:
    vault.writer.refuse_unsafe(vault.folder, [])
    vault.writer.write(vault.folder, {"Cell.md": exported("# Cell")})
    vault.writer.refuse_unsafe(vault.folder, ["/somewhere/else"])


def test_a_folder_inside_an_imported_vault_is_refused(vault: VaultCase) -> None:
    with pytest.raises(InvalidInput, match="a vault you imported"):
        vault.writer.refuse_unsafe(vault.folder, [vault.folder])
    parent = vault.folder.rsplit("/", 1)[0]
    with pytest.raises(InvalidInput, match="a vault you imported"):
        vault.writer.refuse_unsafe(vault.folder, [parent])


def test_an_obsidian_vault_is_refused(vault: VaultCase) -> None:
    vault.put("Cell.md", exported("# Cell"))
    vault.make_obsidian()
    with pytest.raises(InvalidInput, match="Obsidian vault"):
        vault.writer.refuse_unsafe(vault.folder, [])


def test_a_folder_of_the_learners_own_notes_is_refused(vault: VaultCase) -> None:
    vault.put("Mine.md", "# My own note\n")
    with pytest.raises(InvalidInput, match="did not write"):
        vault.writer.refuse_unsafe(vault.folder, [])


def test_a_note_write_that_fails_midway_leaves_the_old_note_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    where = tmp_path / "biology"
    writer = MarkdownFolderWriter()
    writer.write(str(where), {"Cell.md": exported("# Cell")})
    real_replace = partial_files.os.replace

    def failing_replace(src: str, dst: str) -> None:
        raise OSError("disk full")  # the partial is written; moving it into place fails

    monkeypatch.setattr(partial_files.os, "replace", failing_replace)
    with pytest.raises(OSError):
        writer.write(str(where), {"Cell.md": exported("# Cell, edited")})
    monkeypatch.setattr(partial_files.os, "replace", real_replace)
    assert (where / "Cell.md").read_text("utf-8") == exported("# Cell")
    assert sorted(p.name for p in where.iterdir()) == ["Cell.md"]  # no partial left
