"""A collection's scheduling options: when its day starts ("next day starts at") and each deck's
FSRS parameters and desired retention, from either layout Anki writes.

Schema 11 (``collection.anki2``/``.anki21``) keeps them as JSON in ``col`` (``conf``, ``dconf``,
``decks``); schema 18 (``collection.anki21b``) in the ``config``, ``deck_config`` and ``decks``
tables, the options as protobuf messages (``DeckConfig.Config``, ``Deck.Normal``) read here by
a small wire-format reader — only the few fields the import uses, each checked for its type,
so a damaged message reads as "the defaults", never as a crash.
"""

from __future__ import annotations

import json
import math
import struct
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from studyhall.core.contracts.anki_deck import AnkiDeckOptions

if TYPE_CHECKING:
    import sqlite3

OPTIONS_MAX = 64 * 1024  # bytes of one deck's options message (Anki's are ~300)
FSRS6 = 21  # FSRS-6 weights; FSRS-5's 19 are extended as Anki does (no short-term decay, 0.5)
_FSRS5_TAIL = (0.0, 0.5)
# Field numbers in Anki's protobuf messages (anki/deck_config.proto, anki/decks.proto).
_PARAMS5, _PARAMS6, _RETENTION = 5, 6, 37  # DeckConfig.Config
_KIND_NORMAL, _CONFIG_ID, _DECK_RETENTION = 1, 1, 10  # DeckKind.normal, Deck.Normal fields
Wire = dict[int, list[int | bytes]]


def wire_fields(raw: bytes) -> Wire:
    """A protobuf message's fields by number: varints and fixed-width values as ints, length-
    delimited ones as bytes. Stops at the first malformed byte (what came before stands)."""
    out: Wire = {}
    at = 0
    try:
        while at < len(raw):
            key, at = _varint(raw, at)
            number, kind = key >> 3, key & 7
            value: int | bytes
            if kind == 0:
                value, at = _varint(raw, at)
            elif kind == 1:
                value, at = int.from_bytes(raw[at:at + 8], "little"), at + 8
            elif kind == 2:
                size, at = _varint(raw, at)
                value, at = raw[at:at + size], at + size
            elif kind == 5:
                value, at = int.from_bytes(raw[at:at + 4], "little"), at + 4
            else:
                break
            if at > len(raw):
                break
            out.setdefault(number, []).append(value)
    except IndexError:
        pass
    return out


def _varint(raw: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while shift < 70:
        byte = raw[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, at
        shift += 7
    raise IndexError("varint too long")


def _float32(bits: int) -> float:
    return float(struct.unpack("<f", bits.to_bytes(4, "little"))[0])


def _floats(packed: list[int | bytes]) -> tuple[float, ...]:
    raw = b"".join(p for p in packed if isinstance(p, bytes))
    return struct.unpack(f"<{len(raw) // 4}f", raw[: len(raw) // 4 * 4])


def fsrs_weights(params6: Any, params5: Any) -> tuple[float, ...]:
    """The weights to replay with: FSRS-6's, else FSRS-5's extended; empty when there are none
    (or they are not finite numbers): the package's defaults."""
    for weights, size in ((params6, FSRS6), (params5, FSRS6 - len(_FSRS5_TAIL))):
        if isinstance(weights, list | tuple) and len(weights) == size and all(
                isinstance(w, int | float) and not isinstance(w, bool) and math.isfinite(w)
                for w in weights):
            return (*map(float, weights), *_FSRS5_TAIL[: FSRS6 - size])
    return ()


def retention(value: Any, default: float = 0.9) -> float:
    """A desired retention as Anki allows it (0.7–0.99), else ``default``."""
    if isinstance(value, int | float) and not isinstance(value, bool) and 0.7 <= value <= 0.99:
        return round(float(value), 4)  # a float32 (0.85 reads 0.8500000238)
    return default


def rollover(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and (
        0 <= value <= 23) else None


def legacy_options(decks: Mapping[str, Any], dconf: Any,
                   used: Mapping[int, str]) -> tuple[AnkiDeckOptions, ...]:
    """Schema 11: ``used`` (deck id → name, the decks holding notes) with their options."""
    confs = dconf if isinstance(dconf, dict) else {}
    out: list[AnkiDeckOptions] = []
    for deck_id, name in sorted(used.items(), key=lambda item: item[1]):
        deck = decks.get(str(deck_id))
        deck = deck if isinstance(deck, dict) else {}
        conf = confs.get(str(deck.get("conf", 1)))
        conf = conf if isinstance(conf, dict) else {}
        base = retention(conf.get("desiredRetention"))
        out.append(AnkiDeckOptions(name, fsrs_weights(conf.get("fsrsParams6"),
                                                      conf.get("fsrsParams5")),
                                   retention(deck.get("desiredRetention"), base)))
    return tuple(out)


def modern_options(conn: sqlite3.Connection, used: Mapping[int, str]
                   ) -> tuple[AnkiDeckOptions, ...]:
    """Schema 18: the same from the ``decks`` and ``deck_config`` tables' messages."""
    configs: dict[int, AnkiDeckOptions] = {}
    for config_id, raw in conn.execute(
            "select id, config from deck_config where typeof(id) = 'integer' and "
            f"typeof(config) = 'blob' and length(config) <= {OPTIONS_MAX}"):
        fields = wire_fields(bytes(raw))
        kept = [v for v in fields.get(_RETENTION, ()) if isinstance(v, int)]
        configs[config_id] = AnkiDeckOptions(
            "", fsrs_weights(_floats(fields.get(_PARAMS6, [])), _floats(fields.get(_PARAMS5, []))),
            retention(_float32(kept[-1])) if kept else 0.9)
    out: list[AnkiDeckOptions] = []
    for deck_id, name in sorted(used.items(), key=lambda item: item[1]):
        row = conn.execute("select kind from decks where id = ? and typeof(kind) = 'blob' and "
                           f"length(kind) <= {OPTIONS_MAX}", (deck_id,)).fetchone()
        normal = wire_fields(bytes(row[0])).get(_KIND_NORMAL, []) if row else []
        deck = wire_fields(normal[0]) if normal and isinstance(normal[0], bytes) else {}
        ids = [v for v in deck.get(_CONFIG_ID, ()) if isinstance(v, int)]
        own = configs.get(ids[0] if ids else 1) or configs.get(1) or AnkiDeckOptions("")
        override = [v for v in deck.get(_DECK_RETENTION, ()) if isinstance(v, int)]
        wanted = retention(_float32(override[-1]), own.desired_retention) if override else (
            own.desired_retention)
        out.append(AnkiDeckOptions(name, own.parameters, wanted))
    return tuple(out)


def modern_rollover(conn: sqlite3.Connection) -> int | None:
    """Schema 18's ``config`` row "rollover" (a WITHOUT ROWID table: read by ``substr``)."""
    row = conn.execute("select substr(val, 1, 16) from config where key = 'rollover'").fetchone()
    try:
        return rollover(json.loads(row[0])) if row else None
    except (ValueError, TypeError):
        return None
