"""Real Anki collections, made with the official ``anki`` package (a dev dependency), their
review history written as Anki's revlog rows, exported as Anki exports them — and Anki's own FSRS
memory state of every card, the figure Studyhall's replay is held to.

``fidelity_collection`` holds three decks: "Varied" (answers at every hour of the day, learning
and relearning steps, lapses, plus rows Anki's FSRS skips: cram answers of a filtered deck with
rescheduling off, "set due date" and manual rows, and cram answers that do reschedule), "Kana"
(one-character notes, "あ" → "a") and "Custom" (its own options: optimised FSRS parameters and a
desired retention of 0.85).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

CUSTOM_PARAMS = [0.3, 1.1, 2.5, 9.0, 6.8, 0.5, 1.9, 0.01, 1.4, 0.15, 0.9, 1.9, 0.1, 0.3, 2.2,
                 0.2, 3.0, 0.5, 0.6, 0.1, 0.2]
CUSTOM_RETENTION = 0.85
KANA = [("あ", "a"), ("い", "i"), ("う", "u"), ("え", "e")]
START = datetime(2025, 1, 6, tzinfo=UTC)
# revlog (type, factor): a learning / review / relearning answer, and what Anki's FSRS skips
LEARN, REVIEW, RELEARN, CRAM, MANUAL, RESCHEDULED = 0, 1, 2, 3, 4, 5


@dataclass
class Built:
    path: Path  # the exported .apkg
    stability: dict[str, float] = field(default_factory=dict)  # note statement → Anki's
    difficulty: dict[str, float] = field(default_factory=dict)
    answers: int = 0  # revlog rows that are answers Anki's FSRS replays
    cram_off: int = 0  # cram answers with rescheduling off (skipped)
    manual: int = 0  # manual / rescheduled rows (skipped)


def history(rnd: random.Random) -> list[tuple[datetime, int, int, int]]:
    """One card's answers, ``(at, ease, type, factor)``: learning steps the first day, then
    reviews a few days apart at any hour (so the day boundary matters), lapses relearned."""
    at = START + timedelta(hours=rnd.randint(0, 23), minutes=rnd.randint(0, 59))
    rows = [(at, 3, LEARN, 0), (at + timedelta(minutes=10), 3, LEARN, 2500)]
    at += timedelta(minutes=10)
    for _ in range(rnd.randint(3, 9)):
        at += timedelta(days=rnd.randint(1, 14), hours=rnd.randint(-11, 11),
                        minutes=rnd.randint(0, 59))
        ease = rnd.choice([1, 2, 3, 3, 3, 4])
        rows.append((at, ease, REVIEW, 2500))
        if ease == 1:
            at += timedelta(minutes=10)
            rows.append((at, 3, RELEARN, 2500))
    return rows


@contextmanager
def collection(folder: Path, rollover: int | None = None) -> Iterator[object]:
    from anki.collection import Collection

    col = Collection(str(folder / "collection.anki2"))
    try:
        col.set_config("fsrs", True)
        if rollover is not None:
            col.set_config("rollover", rollover)
        yield col
    finally:
        col.close()


def _add(col, deck_id: int, front: str, back: str,
         rows: list[tuple[datetime, int, int, int]], serial: int) -> int:
    note = col.new_note(col.models.by_name("Basic"))
    note["Front"], note["Back"] = front, back
    col.add_note(note, deck_id)
    card_id = note.cards()[0].id
    for at, ease, kind, factor in rows:  # + serial: two cards never share a revlog id
        col.db.execute("insert into revlog (id, cid, usn, ease, ivl, lastIvl, factor, time, "
                       "type) values (?, ?, -1, ?, 5, 0, ?, 6000, ?)",
                       int(at.timestamp() * 1000) + serial, card_id, ease, factor, kind)
    return card_id


def fidelity_collection(folder: Path, *, cards: int = 40, seed: int = 32,
                        rollover: int | None = None, legacy: bool = False) -> Built:
    """The three decks, exported to ``folder/fidelity.apkg`` with their scheduling."""
    from anki.collection import DeckIdLimit, ExportAnkiPackageOptions

    rnd = random.Random(seed)
    built = Built(folder / "fidelity.apkg")
    with collection(folder, rollover) as col:
        varied = col.decks.id("Fidelity::Varied")
        kana = col.decks.id("Fidelity::Kana")
        custom = col.decks.id("Fidelity::Custom")
        options = col.decks.get_config(col.decks.add_config_returning_id("Custom options"))
        options["fsrsParams6"] = CUSTOM_PARAMS
        options["desiredRetention"] = CUSTOM_RETENTION
        col.decks.update_config(options)
        deck = col.decks.get(custom)
        deck["conf"] = options["id"]
        col.decks.save(deck)
        made: dict[int, str] = {}
        notes = [(varied, f"Question {n} at any hour", f"answer {n}") for n in range(cards)]
        notes += [(kana, front, back) for front, back in KANA]
        notes += [(custom, f"Custom question {n}", f"custom answer {n}") for n in range(8)]
        for serial, (deck_id, front, back) in enumerate(notes):
            rows = history(rnd)
            built.answers += len(rows)
            if deck_id == varied and serial % 3 == 0:  # what FSRS skips, between answers
                at = rows[2][0] + timedelta(hours=5)
                rows += [(at, 1, CRAM, 0), (at + timedelta(minutes=1), 0, RESCHEDULED, 2500),
                         (at + timedelta(minutes=2), 0, MANUAL, 2500)]
                built.cram_off += 1
                built.manual += 2
            if deck_id == varied and serial % 5 == 1:  # a cram answer that reschedules: counts
                rows.append((rows[-1][0] + timedelta(days=2, hours=3), 3, CRAM, 2500))
                built.answers += 1
            made[_add(col, deck_id, front, back, sorted(rows), serial)] = f"{front} — {back}"
        for card_id, statement in made.items():
            state = col.compute_memory_state(card_id)
            built.stability[statement] = state.stability
            built.difficulty[statement] = state.difficulty
        col.export_anki_package(
            out_path=str(built.path), limit=DeckIdLimit(col.decks.id("Fidelity")),
            options=ExportAnkiPackageOptions(with_scheduling=True, with_deck_configs=True,
                                             with_media=False, legacy=legacy))
    return built
