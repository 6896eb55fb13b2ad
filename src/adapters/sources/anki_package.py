"""``AnkiPackageReader``: an Anki ``.apkg`` read with zipfile, sqlite3 and ``zstandard``.

The package is a zip holding the collection plus the media files, which are not read (a
field's media stay mentions). Anki 2.1.50+ writes ``collection.anki21b`` (zstd, schema 18: decks
in a ``decks`` table) beside a dummy legacy ``collection.anki2`` that only says "please update",
so the anki21b wins; older exports hold ``collection.anki21`` or ``collection.anki2`` (schema 11:
decks as JSON in ``col``). The collection is unpacked under a size cap (a zip or zstd bomb stops
at the cap) into a private temporary folder and opened read-only. Everything is read and checked
before the caller writes anything: a broken zip or zstd stream, a collection without its tables,
or a media list naming paths outside the deck is refused whole, with what to do.

Fields are HTML: tags are stripped (``nh3``), line breaks kept, entities decoded; images and
sounds become mentions ("[image: cat.jpg]"). Review history: revlog rows are answers on a card
(ease 1-4 → again / hard / good / easy); manual reschedules (type 4, 5, or ease 0) are left out.
The old v1 scheduler had three buttons while learning: its ease 2 / 3 there are good / easy.
"""

from __future__ import annotations

import html
import json
import os
import re
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studyhall.core.contracts.anki_deck import DECK_SEPARATOR, AnkiDeckFile, AnkiNote, AnkiReview
from studyhall.core.contracts.learner import Grade
from studyhall.core.errors import InvalidInput, NotFound

if TYPE_CHECKING:  # loaded by the first deck read
    import sqlite3

MAX_COLLECTION_BYTES = 1 << 30  # 1 GiB of collection: far above any real deck's notes
FIELD_MAX = 4000  # characters kept of one side of a card
COLLECTIONS = ("collection.anki21", "collection.anki2")
COMPRESSED = "collection.anki21b"  # preferred: the legacy one beside it is a dummy
_CHUNK = 1 << 20
# zstd input is fed this many bytes at a time: its densest block (RLE, 4 bytes for 128 KiB)
# makes at most 256 / 4 * 128 KiB = 8 MiB of output per piece, so a bomb never sits in memory.
_ZSTD_PIECE = 256
GRADES: dict[int, Grade] = {1: "again", 2: "hard", 3: "good", 4: "easy"}
V1_LEARNING: dict[int, Grade] = {1: "again", 2: "good", 3: "easy"}  # three buttons
MANUAL_TYPES = (4, 5)  # revlog types: 4 manual / reset, 5 rescheduled ("set due date")
OLDER_VERSIONS = ('Export it again from Anki with "Support older Anki versions" ticked '
                  "(File → Export, Anki Deck Package).")

_BREAK = re.compile(r"<br\s*/?>|</(?:div|p|li|tr|h[1-6])\s*>", re.IGNORECASE)
_IMAGE = re.compile(r"<img\b[^>]*?\bsrc\s*=\s*[\"']?([^\"'>\s]+)[^>]*>", re.IGNORECASE)
_SOUND = re.compile(r"\[sound:([^\]]+)\]")
_CLOZE = re.compile(r"\{\{c\d+::(.*?)(?:::(.*?))?\}\}", re.DOTALL)
_SPACES = re.compile(r"[ \t\u00a0]+")


def field_text(raw: str) -> tuple[str, list[str]]:
    """A field's HTML as plain text, and the media files it mentions."""
    import nh3  # here: only an Anki import needs it

    media = [*_IMAGE.findall(raw), *_SOUND.findall(raw)]
    text = _IMAGE.sub(lambda m: f" [image: {m.group(1)}] ", raw)
    text = _SOUND.sub(lambda m: f" [sound: {m.group(1)}] ", text)
    text = _BREAK.sub("\n", text)
    text = html.unescape(nh3.clean(text, tags=set()))
    lines = [_SPACES.sub(" ", line).strip() for line in text.splitlines()]
    return "\n".join(line for line in lines if line)[:FIELD_MAX], media


@dataclass(frozen=True)
class _Card:
    id: int
    note_id: int
    deck_id: int
    ord: int


class AnkiPackageReader:
    def __init__(self, max_collection_bytes: int = MAX_COLLECTION_BYTES) -> None:
        self.max_collection_bytes = max_collection_bytes

    def read(self, path: str) -> AnkiDeckFile:
        where = Path(os.path.abspath(os.path.expanduser(path)))
        if not where.exists():
            raise NotFound(f"There is nothing at {where}. Check the path and try again.")
        if not where.is_file():
            raise InvalidInput(f"{where} is not a file: an Anki deck is one .apkg file.")
        import sqlite3  # on the first deck, not at start-up

        with self._collection(where) as db, closing(sqlite3.connect(
                f"{db.as_uri()}?mode=ro", uri=True)) as conn:
            try:
                return _read_collection(conn, str(where))
            except sqlite3.DatabaseError as e:
                raise InvalidInput(
                    f"{where.name} is not a readable Anki collection ({e}). Export the deck "
                    f"again from Anki. {OLDER_VERSIONS}") from None

    @contextmanager
    def _collection(self, package: Path) -> Iterator[Path]:
        """The package's collection, copied out under the size cap into a private folder."""
        try:
            archive = zipfile.ZipFile(package)
        except (zipfile.BadZipFile, OSError) as e:
            raise InvalidInput(f"{package.name} is not an Anki package: {_why(e)}. Export the "
                               "deck from Anki as an .apkg (File → Export).") from None
        with archive, tempfile.TemporaryDirectory(prefix="studyhall-anki-") as folder:
            names = set(archive.namelist())
            _check_media(archive, names, package.name)
            target = Path(folder) / "collection.sqlite"
            if COMPRESSED in names:
                self._unpack_zstd(archive, package.name, target)
            else:
                member = next((n for n in COLLECTIONS if n in names), None)
                if member is None:
                    raise InvalidInput(f"{package.name} holds no Anki collection "
                                       "(collection.anki21b, .anki21 or .anki2). Export the deck "
                                       "again from Anki (File → Export, Anki Deck Package).")
                with archive.open(member) as source, open(target, "wb") as out:
                    self._copy(source, out, package.name)
            yield target

    def _copy(self, source: Any, out: Any, name: str) -> None:
        written = 0
        try:
            while chunk := source.read(_CHUNK):
                written += len(chunk)
                self._check_size(written, name)
                out.write(chunk)
        except (zipfile.BadZipFile, OSError, EOFError) as e:
            raise InvalidInput(f"{name} is damaged ({_why(e)}). Export the deck again.") from None

    def _unpack_zstd(self, archive: zipfile.ZipFile, name: str, target: Path) -> None:
        """``collection.anki21b`` decompressed into ``target``, one bounded piece at a time
        (the stream reader would hand back a cut-short stream as if it were whole)."""
        import zstandard  # here: only an Anki import needs it

        frame = zstandard.ZstdDecompressor().decompressobj()
        written = 0
        try:
            with archive.open(COMPRESSED) as source, open(target, "wb") as out:
                while block := source.read(_CHUNK):
                    for at in range(0, len(block), _ZSTD_PIECE):
                        piece = block[at:at + _ZSTD_PIECE]
                        while piece:
                            if frame.eof:  # zstd frames may follow each other: keep going
                                frame = zstandard.ZstdDecompressor().decompressobj()
                            data = frame.decompress(piece)
                            piece = frame.unused_data if frame.eof else b""
                            written += len(data)
                            self._check_size(written, name)
                            out.write(data)
        except (zipfile.BadZipFile, OSError, EOFError, zstandard.ZstdError) as e:
            raise InvalidInput(f"{name} is damaged ({_why(e)}). Export the deck again.") from None
        if not frame.eof:
            raise InvalidInput(f"{name} is damaged: its collection (collection.anki21b) is cut "
                               "short. Export the deck again, or copy the whole file.")

    def _check_size(self, written: int, name: str) -> None:
        if written > self.max_collection_bytes:
            raise InvalidInput(
                f"{name}'s collection unpacks to more than "
                f"{self.max_collection_bytes >> 20} MiB: refused (a real deck's notes are "
                "far smaller; the file may be damaged or hostile).")


def _why(error: BaseException) -> str:
    return str(error) or type(error).__name__


def _check_media(archive: zipfile.ZipFile, names: set[str], package: str) -> None:
    """Refuse a package whose members or media list name paths outside it (never written,
    but such a package is not Anki's)."""
    listed: list[str] = list(names)
    if "media" in names:
        with archive.open("media") as f:
            raw = f.read(16 << 20)
        try:
            media = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            media = None  # the newer binary media list: nothing to check by name
        if isinstance(media, dict):
            listed += [str(k) for k in media] + [str(v) for v in media.values()]
    for name in listed:
        parts = name.replace("\\", "/").split("/")
        if name.startswith(("/", "\\")) or ".." in parts or "\x00" in name or ":" in parts[0]:
            raise InvalidInput(f"{package} names a file outside the deck ({name!r}): refused. "
                               "Export the deck again from Anki.")


# --- the collection ---------------------------------------------------------------------------


def _read_collection(conn: sqlite3.Connection, path: str) -> AnkiDeckFile:
    tables = {row[0] for row in conn.execute("select name from sqlite_master where type='table'")}
    missing = {"col", "notes", "cards"} - tables
    if missing:
        raise InvalidInput(f"{os.path.basename(path)} is missing Anki's tables "
                           f"({', '.join(sorted(missing))}). {OLDER_VERSIONS}")
    decks = _decks(conn, tables)
    v1 = _scheduler(conn, tables) == 1
    cards: dict[int, list[_Card]] = {}
    for cid, nid, did, odid, ord_ in conn.execute("select id, nid, did, odid, ord from cards"):
        cards.setdefault(nid, []).append(_Card(cid, nid, odid or did, ord_))
    answers, left_out = _reviews(conn, tables, v1)
    notes: list[AnkiNote] = []
    skipped: list[tuple[str, str]] = []
    for nid, guid, flds, tags in conn.execute("select id, guid, flds, tags from notes order by id"):
        own = sorted(cards.get(nid, ()), key=lambda c: c.ord)
        if not own:
            skipped.append((str(guid), "the note has no cards"))
            continue
        made = _note(str(guid), str(flds), str(tags), decks.get(own[0].deck_id, "Default"))
        if made is None:
            skipped.append((str(guid), "the note's first two fields are empty"))
            continue
        # One history per note: the card with the most answers (a reversed card's history
        # would replay the same fact twice).
        history = max((answers.get(c.id, []) for c in own), key=len)
        notes.append(replace(made, reviews=tuple(sorted(history, key=lambda r: r.at))))
    return AnkiDeckFile(path, tuple(notes), tuple(skipped), left_out)


def _decks(conn: sqlite3.Connection, tables: set[str]) -> dict[int, str]:
    (raw,) = conn.execute("select decks from col").fetchone() or ("{}",)
    try:
        loaded = json.loads(raw or "{}")
    except ValueError:
        loaded = {}
    out = {int(k): str(v.get("name", "Default")) for k, v in loaded.items()
           if isinstance(v, dict)}
    if not out and "decks" in tables:  # schema 18: a table, names "\x1f"-separated
        # (its name column collates with Anki's own "unicase": never compare or sort on it here)
        out = {int(i): str(n).replace("\x1f", DECK_SEPARATOR)
               for i, n in conn.execute("select id, name from decks")}
    return out


def _scheduler(conn: sqlite3.Connection, tables: set[str]) -> int:
    (raw,) = conn.execute("select conf from col").fetchone() or ("{}",)
    try:
        version = json.loads(raw or "{}").get("schedVer")
    except (ValueError, AttributeError):
        version = None
    if version is None and "config" in tables:
        row = conn.execute("select val from config where key = 'schedVer'").fetchone()
        try:
            version = json.loads(row[0]) if row else None
        except (ValueError, TypeError):
            version = None
    return version if isinstance(version, int) else 2


def _reviews(conn: sqlite3.Connection, tables: set[str],
             v1: bool) -> tuple[dict[int, list[AnkiReview]], int]:
    if "revlog" not in tables:
        return {}, 0
    out: dict[int, list[AnkiReview]] = {}
    left_out = 0
    for rid, cid, ease, kind in conn.execute("select id, cid, ease, type from revlog"):
        grades = V1_LEARNING if v1 and kind in (0, 2) else GRADES
        grade = grades.get(ease)
        if kind in MANUAL_TYPES or grade is None or not isinstance(rid, int) or rid <= 0:
            left_out += 1
            continue
        try:
            at = datetime.fromtimestamp(rid / 1000, UTC)
        except (OverflowError, OSError, ValueError):
            left_out += 1
            continue
        out.setdefault(cid, []).append(AnkiReview(f"{rid}-{cid}", at, grade))
    return out, left_out


def _note(guid: str, flds: str, tags: str, deck: str) -> AnkiNote | None:
    fields = flds.split("\x1f")
    media: list[str] = []
    texts: list[str] = []
    for raw in fields:
        text, found = field_text(raw)
        texts.append(text)
        media += found
    first = texts[0] if texts else ""
    rest = texts[1] if len(texts) > 1 else ""
    if _CLOZE.search(fields[0]):
        front = _CLOZE.sub(lambda m: f"[{m.group(2) or '…'}]", first)
        filled = _CLOZE.sub(lambda m: m.group(1), first)
        back = "\n".join(t for t in (filled, rest) if t)
        statement = filled
    else:
        front, back = first, rest
        statement = f"{first} — {rest}" if first and rest else first or rest
    if not front or not back:
        if not (front or back):
            return None
        front, back = front or back, back or front
    return AnkiNote(guid=guid, deck=deck, front=front, back=back,
                    statement=" ".join(statement.split())[:FIELD_MAX], tags=tuple(tags.split()),
                    media=tuple(dict.fromkeys(media)))
