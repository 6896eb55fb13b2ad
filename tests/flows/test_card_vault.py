"""The model-free deck on a real-shaped vault (``tests/support/card_vault.py``: the scale
vault, the help vault and a study vault, imported with no model): duplicate fronts ≤ 2 %, no
card answers its own subject, no blank is a stop word, no raw wikilink or Markdown in a card or
in the Anki export — and the export's GUIDs stay put for the notes that did not change."""

from __future__ import annotations

import asyncio

from studyhall.adapters.export.genanki_deck import note_guid
from studyhall.adapters.store import JsonlGraphStore
from studyhall.core.library.export.anki_notes import anki_notes
from studyhall.core.library.graph.snapshot import graph_snapshot
from studyhall.core.library.learner.deck import Deck

from tests.support.card_vault import deck_figures, import_card_vault
from tests.support.notes import importer


def test_the_deck_of_a_real_shaped_vault_has_no_duplicate_or_self_answering_card(tmp_path):
    snapshot = import_card_vault(tmp_path)
    figures = deck_figures(Deck(snapshot.nodes))
    assert figures.topics >= 200 and figures.cards >= 100
    assert figures.duplicate_share <= 0.02, figures
    assert figures.self_answering == 0 and figures.stop_blanks == 0, figures
    assert figures.raw_markup == 0, figures
    assert figures.carded >= 12, figures  # the study notes' definitions and terms, at least


def test_the_anki_export_is_plain_text_and_keeps_its_guids_for_unchanged_notes(tmp_path):
    snapshot = import_card_vault(tmp_path, scale_notes=40)
    notes = anki_notes(snapshot, snapshot.nodes, {})
    assert len(notes) == deck_figures(Deck(snapshot.nodes)).cards
    fields = [f for n in notes for f in (n.front, n.back)]
    assert not any(mark in f for f in fields for mark in ("[[", "]]", "![", "**", "[!tip]"))
    guids = {n.key: note_guid(n.key) for n in notes}
    assert len(set(guids.values())) == len(notes)  # one GUID per card

    # One note changes and is imported again: every other note's cards keep their GUIDs.
    changed = tmp_path / "vault" / "Study" / "Biology" / "Enzymes.md"
    changed.write_text(changed.read_text() + "\nCofactors are ions that some enzymes need.\n")
    asyncio.run(importer(tmp_path / "data").run(str(tmp_path / "vault"), embed=False))
    after = graph_snapshot(JsonlGraphStore(tmp_path / "data" / "graph"))
    enzymes = next(n.id for n in after.nodes if n.text == "Enzymes")
    again = {n.key: note_guid(n.key) for n in anki_notes(after, after.nodes, {})}
    others = {k: g for k, g in guids.items() if not k.startswith(enzymes)}
    assert {k: again.get(k) for k in others} == others
