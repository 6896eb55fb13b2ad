"""A deck's options as the Anki reader takes them: damaged protobuf messages, weights that are
not numbers, a retention out of Anki's range — each reads as the defaults, never a crash."""

from __future__ import annotations

import math
import random
import sqlite3
import struct

from studyhall.adapters.sources.anki_options import (
    fsrs_weights,
    legacy_options,
    modern_options,
    retention,
    rollover,
    wire_fields,
)
from studyhall.core.contracts.anki_deck import AnkiDeckOptions

WEIGHTS = [0.1 * n for n in range(1, 22)]


def config_message(weights: list[float], wanted: float) -> bytes:
    packed = struct.pack(f"<{len(weights)}f", *weights)
    return (bytes([0x32, len(packed)]) + packed  # field 6: fsrs_params_6, packed floats
            + bytes([0xAD, 0x02]) + struct.pack("<f", wanted))  # field 37: desired_retention


def collection(config: bytes, kind: bytes) -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    conn.execute("create table deck_config (id integer primary key, config blob)")
    conn.execute("create table decks (id integer primary key, kind blob)")
    conn.execute("insert into deck_config values (7, ?)", (config,))
    conn.execute("insert into decks values (42, ?)", (kind,))
    return conn


def test_a_modern_decks_options_are_read_from_its_messages():
    kind = bytes([0x0A, 0x02, 0x08, 0x07])  # DeckKind.normal { config_id: 7 }
    options = modern_options(collection(config_message(WEIGHTS, 0.85), kind), {42: "Kana"})
    assert options[0].deck == "Kana" and options[0].desired_retention == 0.85
    assert options[0].parameters == tuple(struct.unpack("<21f", struct.pack("<21f", *WEIGHTS)))


def test_damaged_messages_read_as_the_defaults():
    rnd = random.Random(7)
    for _ in range(300):
        junk = bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 80)))
        wire_fields(junk)  # never raises
        (got,) = modern_options(collection(junk, junk), {42: "Deck"})
        assert len(got.parameters) in (0, 21) and 0.7 <= got.desired_retention <= 0.99
    assert modern_options(collection(b"\xff" * 10, b"\x0a\x7f"), {42: "D"}) == (
        AnkiDeckOptions("D"),)


def test_weights_and_retention_outside_what_anki_writes_are_not_used():
    assert fsrs_weights([*WEIGHTS[:20], math.nan], None) == ()
    assert fsrs_weights(["1"] * 21, None) == () and fsrs_weights([1.0] * 5, None) == ()
    assert fsrs_weights(None, [0.5] * 19) == (*[0.5] * 19, 0.0, 0.5)  # FSRS-5, extended
    assert retention(1.5) == 0.9 and retention(True) == 0.9 and retention(0.8) == 0.8
    assert rollover(24) is None and rollover("4") is None and rollover(6) == 6
    decks = {"1": {"name": "A", "conf": "nope"}, "2": ["not", "a", "deck"]}
    assert legacy_options(decks, {"1": "bad"}, {1: "A", 2: "B"}) == (
        AnkiDeckOptions("A"), AnkiDeckOptions("B"))
