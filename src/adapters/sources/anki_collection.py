"""The collection inside an ``.apkg`` (sqlite) read into notes, decks and review history, every
value bounded and checked.

Memory stays bounded whatever a field holds: large columns are read through sqlite's blob handle
a piece at a time (a 200 MB field is never loaded whole: ``substr``/``length`` would load it),
each note field is kept to ``RAW_FIELD_MAX`` characters (the note is imported, the cut is
reported), numbers are selected only when they are numbers (``typeof`` reads no content).
A collection that is not what Anki writes — ids that are not numbers, the deck list not a JSON
object, a card without its template number — is refused whole, naming what is wrong; cosmetic
gaps (a NULL field, tag list or deck name) read as empty.
"""

from __future__ import annotations

import codecs
import itertools
import json
import os
from collections.abc import Generator
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from studyhall.adapters.sources.anki_fields import FIELD_MAX, RAW_FIELD_MAX, note_of
from studyhall.adapters.sources.anki_options import (
    legacy_options,
    modern_options,
    modern_rollover,
    rollover,
)
from studyhall.core.contracts.anki_deck import DECK_SEPARATOR, AnkiDeckFile, AnkiNote, AnkiReview
from studyhall.core.contracts.learner import Grade
from studyhall.core.errors import InvalidInput

if TYPE_CHECKING:  # the reader opens the connection (on the first deck, not at start-up)
    import sqlite3

MAX_FIELDS = 128  # fields read of one note (a real note type has a few dozen at most)
GUID_MAX = 256  # characters of a note's GUID (Anki's are ~10)
TAGS_MAX = 16 * 1024  # characters of a note's tag list
DECK_NAME_MAX = 1024  # characters of a deck's name
JSON_MAX = 16 << 20  # characters of col's deck list / config JSON (5,000 decks are ~5 MB)
_PIECE = 1 << 20  # bytes read from a blob handle at a time
GRADES: dict[int, Grade] = {1: "again", 2: "hard", 3: "good", 4: "easy"}
V1_LEARNING: dict[int, Grade] = {1: "again", 2: "good", 3: "easy"}  # three buttons
MANUAL_TYPES = (4, 5)  # revlog types: 4 manual / reset, 5 rescheduled ("set due date")
SUSPENDED = -1  # cards.queue of a card the learner suspended in Anki
CRAM = 3  # revlog type of an answer in a filtered deck: factor 0 when it does not reschedule
OLDER_VERSIONS = ('Export it again from Anki with "Support older Anki versions" ticked '
                  "(File → Export, Anki Deck Package).")
CHECK_DATABASE = "In Anki, run Tools → Check Database, then export the deck again."
_CODECS = {"UTF-8": "utf-8", "UTF-16le": "utf-16-le", "UTF-16be": "utf-16-be"}
_KINDS = {"null": "nothing (NULL)", "real": "a fraction", "text": "text", "blob": "bytes"}


def _malformed(name: str, what: str) -> InvalidInput:
    """A collection Anki would not write: what is wrong, and how the learner repairs it."""
    return InvalidInput(f"{name} is not a collection Anki writes: {what}. {CHECK_DATABASE}")


def _int(column: str) -> str:
    """A column as SQL that yields it only when it is an integer (and its type): ``typeof``
    reads no content, so a huge text where a number belongs is never loaded."""
    return f"case when typeof({column}) = 'integer' then {column} end, typeof({column})"


@dataclass(frozen=True)
class _Card:
    id: int
    note_id: int
    deck_id: int
    ord: int
    suspended: bool = False  # queue -1 in Anki (a buried card, -2/-3, is back tomorrow)


@dataclass
class _Fields:
    values: list[str]
    cut: str | None = None  # why the note's fields were cut, if they were


class _Values:
    """Column values read through the blob handle, never more than asked."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        (encoding,) = conn.execute("pragma encoding").fetchone()
        self._codec = _CODECS.get(str(encoding), "utf-8")

    def pieces(self, table: str, column: str, rowid: int, kind: str) -> Generator[str, None, None]:
        """The value as text, a piece at a time (NULL: nothing; a value of one piece, the
        usual case, in one read)."""
        if kind in ("text", "blob"):
            codec = self._codec if kind == "text" else "utf-8"
            with self._conn.blobopen(table, column, rowid, readonly=True) as blob:
                if len(blob) <= _PIECE:
                    yield blob.read().decode(codec, "replace")
                    return
                decoder = codecs.getincrementaldecoder(codec)(errors="replace")
                while chunk := blob.read(_PIECE):
                    yield decoder.decode(chunk)
            yield decoder.decode(b"", final=True)
        elif kind != "null":  # a number: small
            row = self._conn.execute(f"select {column} from {table} where rowid = ?",
                                     (rowid,)).fetchone()
            yield str(row[0])

    def head(self, table: str, column: str, rowid: int, kind: str,
             cap: int) -> tuple[str, bool]:
        """At most ``cap`` characters of the value, and whether there was more."""
        kept: list[str] = []
        size = 0
        pieces = self.pieces(table, column, rowid, kind)
        try:
            for piece in pieces:
                kept.append(piece)
                size += len(piece)
                if size > cap:
                    return "".join(kept)[:cap], True
        finally:
            pieces.close()  # the blob handle closes now, not when collected
        return "".join(kept), False

    def fields(self, rowid: int, kind: str) -> _Fields:
        """A note's ``flds`` split on "\\x1f", each field kept to ``RAW_FIELD_MAX``, at most
        ``MAX_FIELDS`` of them: the whole value streams past, only the kept parts stay."""
        values: list[list[str]] = [[]]
        sizes = [0]
        pieces = self.pieces("notes", "flds", rowid, kind)
        try:
            first = next(pieces, "")
            if len(first) <= RAW_FIELD_MAX and first.count("\x1f") < MAX_FIELDS and next(
                    pieces, None) is None:
                return _Fields(first.split("\x1f"))  # the usual note: small, read at once
            for piece in itertools.chain([first], pieces):
                at = 0
                while True:
                    sep = piece.find("\x1f", at)
                    part = piece[at:] if sep < 0 else piece[at:sep]
                    room = RAW_FIELD_MAX - sizes[-1]  # what is kept is the field's start
                    if room > 0 and part:
                        values[-1].append(part[:room])
                    sizes[-1] += len(part)
                    if sep < 0:
                        break
                    if len(values) == MAX_FIELDS:
                        return _Fields(["".join(v) for v in values],
                                       f"it has more than {MAX_FIELDS} fields: the rest were "
                                       "not read")
                    values.append([])
                    sizes.append(0)
                    at = sep + 1
        finally:
            pieces.close()
        over = [(n, size) for n, size in enumerate(sizes, 1) if size > RAW_FIELD_MAX]
        cut = None if not over else "; ".join(
            f"field {n} holds {size:,} characters: its first {RAW_FIELD_MAX:,} were read (a "
            f"card keeps {FIELD_MAX:,} characters of text)" for n, size in over)
        return _Fields(["".join(v) for v in values], cut)


def read_collection(conn: sqlite3.Connection, path: str) -> AnkiDeckFile:
    """Everything the import takes from an open collection. Raises ``InvalidInput`` naming
    what is wrong (and, for a collection Anki would not write, how to repair it)."""
    name = os.path.basename(path)
    tables = {row[0] for row in conn.execute("select name from sqlite_master where type='table'")}
    missing = {"col", "notes", "cards"} - tables
    if missing:
        raise InvalidInput(f"{name} is missing Anki's tables "
                           f"({', '.join(sorted(missing))}). {OLDER_VERSIONS}")
    values = _Values(conn)
    decks, legacy = _decks(conn, values, tables, name)
    conf, _ = _json_column(conn, values, "conf")  # unreadable: the usual v2 scheduler
    conf = conf if isinstance(conf, dict) else {}
    v1 = _scheduler(conn, conf, tables) == 1
    cards = _cards(conn, name)
    answers, left_out, cram = _reviews(conn, tables, v1)
    used: dict[int, str] = {}
    notes: list[AnkiNote] = []
    skipped: list[tuple[str, str]] = []
    cut: list[tuple[str, str]] = []
    for rowid, nid, _, guid_kind, flds_kind, tags_kind in conn.execute(
            f"select rowid, {_int('id')}, typeof(guid), typeof(flds), typeof(tags) from notes "
            "order by id"):
        if nid is None:
            raise _malformed(name, "a note's id is not a number")
        guid = values.head("notes", "guid", rowid, guid_kind, GUID_MAX)[0] or f"note-{nid}"
        own = sorted(cards.get(nid, ()), key=lambda c: c.ord)
        if not own:
            skipped.append((guid, "the note has no cards"))
            continue
        fields = values.fields(rowid, flds_kind)
        tags = values.head("notes", "tags", rowid, tags_kind, TAGS_MAX)[0]
        made = note_of(guid, fields.values, tags, decks.get(own[0].deck_id, "Default"))
        if made is not None:
            used.setdefault(own[0].deck_id, made.deck)
        if made is None:
            skipped.append((guid, "the note's first two fields are empty"))
            continue
        if fields.cut:
            cut.append((guid, f"imported, cut: {fields.cut}"))
        # One history per note: the card with the most answers (a reversed card's history
        # would replay the same fact twice).
        history = max((answers.get(c.id, []) for c in own), key=len)
        notes.append(replace(made, reviews=tuple(sorted(history, key=lambda r: r.at)),
                             suspended=all(c.suspended for c in own)))
    if legacy:
        options = legacy_options(legacy, _json_column(conn, values, "dconf")[0], used)
    else:
        options = modern_options(conn, used) if "deck_config" in tables else ()
    day = rollover(conf.get("rollover"))
    if day is None and "config" in tables:
        day = modern_rollover(conn)
    return AnkiDeckFile(path, tuple(notes), tuple(skipped), left_out, tuple(cut), cram, day,
                        options)


def _json_column(conn: sqlite3.Connection, values: _Values, column: str) -> tuple[Any, bool]:
    """``col``'s JSON column parsed (``None``: empty), and whether it parsed."""
    row = conn.execute(f"select rowid, typeof({column}) from col limit 1").fetchone()
    if row is None:
        return None, True
    raw, over = values.head("col", column, row[0], row[1], JSON_MAX)
    if over:
        return None, False
    if not raw.strip():
        return None, True
    try:
        return json.loads(raw), True
    except (ValueError, RecursionError):
        return None, False


def _decks(conn: sqlite3.Connection, values: _Values, tables: set[str],
           name: str) -> tuple[dict[int, str], dict[str, Any]]:
    """Deck id → name, and schema 11's deck list as JSON (empty for schema 18)."""
    loaded, parsed = _json_column(conn, values, "decks")
    if not parsed:
        raise _malformed(name, "its deck list (col.decks) is not readable JSON (or is over "
                         f"{JSON_MAX >> 20} MiB)")
    if loaded is not None and not isinstance(loaded, dict):
        raise _malformed(name, f"its deck list (col.decks) is a JSON {type(loaded).__name__}, "
                         "not an object of decks by id")
    out: dict[int, str] = {}
    for key, deck in (loaded or {}).items():
        if not isinstance(deck, dict):
            raise _malformed(name, f"deck {key[:40]!r} in its deck list (col.decks) is not a "
                             "JSON object")
        try:
            deck_id = int(key)
        except ValueError:
            raise _malformed(name, "its deck list (col.decks) has a deck id that is not a "
                             f"number ({key[:40]!r})") from None
        out[deck_id] = str(deck.get("name") or "Default")[:DECK_NAME_MAX]
    if out:
        return out, loaded or {}
    if "decks" in tables:  # schema 18: a table, names "\x1f"-separated
        # (its name column collates with Anki's own "unicase": never compare or sort on it here)
        for rowid, deck_id, kind, name_kind in conn.execute(
                f"select rowid, {_int('id')}, typeof(name) from decks"):
            if deck_id is None:
                raise _malformed(name, f"a deck's id (in its decks table) is "
                                 f"{_KINDS.get(kind, kind)}, not a number")
            text = values.head("decks", "name", rowid, name_kind, DECK_NAME_MAX)[0]
            out[deck_id] = text.replace("\x1f", DECK_SEPARATOR) or "Default"
    return out, {}


def _scheduler(conn: sqlite3.Connection, conf: dict[str, Any], tables: set[str]) -> int:
    version = conf.get("schedVer")
    if version is None and "config" in tables:  # a WITHOUT ROWID table: no blob handle
        row = conn.execute("select substr(val, 1, 64) from config "
                           "where key = 'schedVer'").fetchone()
        try:
            version = json.loads(row[0]) if row else None
        except (ValueError, TypeError):
            version = None
    return version if isinstance(version, int) else 2


_CARD_COLUMNS = {"id": "its id", "nid": "its note (nid)", "did": "its deck (did)",
                 "odid": "its home deck (odid)", "ord": "its template number (ord)"}


def _cards(conn: sqlite3.Connection, name: str) -> dict[int, list[_Card]]:
    out: dict[int, list[_Card]] = {}
    # The queue is read leniently: a card whose queue is not a number is simply not suspended.
    columns = ", ".join(map(_int, (*_CARD_COLUMNS, "queue")))
    for *row, queue, _ in conn.execute(f"select {columns} from cards"):
        card_id, _, nid, _, did, _, odid, odid_kind, ord_, _ = row
        if card_id is None or nid is None or did is None or ord_ is None or (
                odid is None and odid_kind != "null"):  # (NULL odid: not in a filtered deck)
            raise _malformed(name, _wrong_card(tuple(row)))
        out.setdefault(nid, []).append(_Card(card_id, nid, odid or did, ord_,
                                             suspended=queue == SUSPENDED))
    return out


def _wrong_card(row: tuple[Any, ...]) -> str:
    card = f"card {row[0]}" if row[0] is not None else "a card"
    for (column, what), value, kind in zip(_CARD_COLUMNS.items(), row[0::2], row[1::2],
                                           strict=True):
        if value is None and not (column == "odid" and kind == "null"):
            return f"{card} has {_KINDS.get(kind, kind)} as {what}, not a number"
    raise AssertionError("the card row has no wrong column")


def _reviews(conn: sqlite3.Connection, tables: set[str],
             v1: bool) -> tuple[dict[int, list[AnkiReview]], int, int]:
    """Answers by card id, the rows that are not answers, and the cram answers Anki's FSRS
    skips (a filtered deck with rescheduling off writes them with factor 0)."""
    if "revlog" not in tables:
        return {}, 0, 0
    out: dict[int, list[AnkiReview]] = {}
    left_out = cram = 0
    for rid, _, cid, _, ease, _, kind, _, factor, _ in conn.execute(
            f"select {_int('id')}, {_int('cid')}, {_int('ease')}, {_int('type')}, "
            f"{_int('factor')} from revlog"):
        grades = V1_LEARNING if v1 and kind in (0, 2) else GRADES
        grade = grades.get(ease) if ease is not None else None
        if kind in MANUAL_TYPES or grade is None or rid is None or rid <= 0 or cid is None:
            left_out += 1
            continue
        if kind == CRAM and factor == 0:
            cram += 1
            continue
        try:
            at = datetime.fromtimestamp(rid / 1000, UTC)
        except (OverflowError, OSError, ValueError):
            left_out += 1
            continue
        out.setdefault(cid, []).append(AnkiReview(f"{rid}-{cid}", at, grade))
    return out, left_out, cram
