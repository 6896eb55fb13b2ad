"""``AnkiPackageReader``: an Anki ``.apkg`` read with zipfile, sqlite3 and ``zstandard``.

The package is a zip holding the collection plus the media files, which are not read (a
field's media stay mentions). Anki 2.1.50+ writes ``collection.anki21b`` (zstd, schema 18: decks
in a ``decks`` table) beside a dummy legacy ``collection.anki2`` that only says "please update",
so the anki21b wins; older exports hold ``collection.anki21`` or ``collection.anki2`` (schema 11:
decks as JSON in ``col``). The collection is unpacked under a size cap (a zip or zstd bomb stops
at the cap) into a private temporary folder and opened read-only. Everything is read and checked
before the caller writes anything: a broken zip or zstd stream, a collection without its tables,
or a media list naming paths outside the deck is refused whole, with what to do.

The collection itself is read by ``anki_collection.py`` (every value bounded and checked: a
collection Anki would not write is refused naming what is wrong) and each note's fields by
``anki_fields.py`` (HTML to text in linear time, images and sounds as mentions).
"""

from __future__ import annotations

import json
import lzma
import os
import tempfile
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

from studyhall.adapters.sources.anki_collection import OLDER_VERSIONS, read_collection
from studyhall.adapters.sources.path_rule import ROOT_ONLY, PathRule, Refused
from studyhall.core.contracts.anki_deck import AnkiDeckFile
from studyhall.core.errors import InvalidInput, NotFound

MAX_COLLECTION_BYTES = 1 << 30  # 1 GiB of collection: far above any real deck's notes
COLLECTIONS = ("collection.anki21", "collection.anki2")
COMPRESSED = "collection.anki21b"  # preferred: the legacy one beside it is a dummy
_CHUNK = 1 << 20
# zstd input is fed this many bytes at a time: its densest block (RLE, 4 bytes for 128 KiB)
# makes at most 256 / 4 * 128 KiB = 8 MiB of output per piece, so a bomb never sits in memory.
_ZSTD_PIECE = 256
# What zipfile raises for a member it cannot read: damaged (its headers, or the compressed
# stream: zlib / lzma errors), encrypted (RuntimeError), packed with a method it lacks
# (NotImplementedError), or a header pointing nowhere (ValueError).
_UNREADABLE = (zipfile.BadZipFile, OSError, EOFError, RuntimeError, NotImplementedError,
               ValueError, zlib.error, lzma.LZMAError)


class AnkiPackageReader:
    def __init__(self, max_collection_bytes: int = MAX_COLLECTION_BYTES,
                 rule: PathRule = ROOT_ONLY) -> None:
        self.max_collection_bytes = max_collection_bytes
        self.rule = rule  # the app's rule: never a deck linked into the data folder

    def read(self, path: str) -> AnkiDeckFile:
        where = Path(os.path.abspath(os.path.expanduser(path)))
        if not where.exists():
            raise NotFound(f"There is nothing at {where}. Check the path and try again.")
        if not where.is_file():
            raise InvalidInput(f"{where} is not a file: an Anki deck is one .apkg file.")
        located = self.rule.locate(str(where.parent), where.name)
        if isinstance(located, Refused):
            raise InvalidInput(f"{where.name} is not imported: {located.reason}.")
        where = Path(located)
        import sqlite3  # on the first deck, not at start-up

        with self._collection(where) as db, closing(sqlite3.connect(
                f"{db.as_uri()}?mode=ro", uri=True)) as conn:
            # Text that is not UTF-8 reads with replacement characters, not as a failure.
            conn.text_factory = lambda raw: raw.decode("utf-8", "replace")
            try:
                return read_collection(conn, str(where))
            except (sqlite3.Error, UnicodeDecodeError) as e:  # (a damaged schema's error
                # message may itself be bytes that are not UTF-8)
                raise InvalidInput(
                    f"{where.name} is not a readable Anki collection ({e}). Export the deck "
                    f"again from Anki. {OLDER_VERSIONS}") from None

    @contextmanager
    def _collection(self, package: Path) -> Iterator[Path]:
        """The package's collection, copied out under the size cap into a private folder."""
        try:
            archive = zipfile.ZipFile(package)
        except _UNREADABLE as e:
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
                self._copy(archive, member, target, package.name)
            yield target

    def _copy(self, archive: zipfile.ZipFile, member: str, target: Path, name: str) -> None:
        written = 0
        try:
            with archive.open(member) as source, open(target, "wb") as out:
                while chunk := source.read(_CHUNK):
                    written += len(chunk)
                    self._check_size(written, name)
                    out.write(chunk)
        except _UNREADABLE as e:
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
        except (*_UNREADABLE, zstandard.ZstdError) as e:
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
        try:
            with archive.open("media") as f:
                raw = f.read(16 << 20)
        except _UNREADABLE as e:
            raise InvalidInput(f"{package} is damaged: its media list cannot be read "
                               f"({_why(e)}). Export the deck again.") from None
        try:
            media = json.loads(raw)
        except (ValueError, RecursionError):  # (UnicodeDecodeError is a ValueError)
            media = None  # the newer binary media list: nothing to check by name
        if isinstance(media, dict):
            listed += [str(k) for k in media] + [str(v) for v in media.values()]
    for name in listed:
        parts = name.replace("\\", "/").split("/")
        if name.startswith(("/", "\\")) or ".." in parts or "\x00" in name or ":" in parts[0]:
            raise InvalidInput(f"{package} names a file outside the deck ({name!r}): refused. "
                               "Export the deck again from Anki.")
