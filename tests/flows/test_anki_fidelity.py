"""Moving in from Anki loses nothing: a real collection made with the official ``anki`` package
(``tests/support/real_anki.py``) imports with every card's FSRS state equal to Anki's own
(``compute_memory_state``) on histories answered at any hour, what Anki's FSRS skips skipped and
counted, one-character notes kept with their history, and each deck's options carried into the
review settings."""

from __future__ import annotations

import statistics

import pytest
from studyhall.core.library.extraction.merger import node_id_for

from tests.support.real_anki import CUSTOM_PARAMS, CUSTOM_RETENTION, KANA, fidelity_collection
from tests.support.session_api import scripted_app

pytest.importorskip("anki")


def errors(model, built) -> list[float]:
    """Each card's relative stability difference, Studyhall's replay against Anki's."""
    out = []
    for statement, theirs in built.stability.items():
        ours = model.card(node_id_for(statement)).card.stability
        out.append(abs(ours - theirs) / theirs)
    return out


@pytest.mark.parametrize("legacy", [False, True], ids=["anki21b", "legacy"])
async def test_imported_cards_match_ankis_own_fsrs_on_varied_hour_histories(tmp_path, legacy):
    built = fidelity_collection(tmp_path, legacy=legacy)
    async with scripted_app(None) as (_api, runtime):
        report = await runtime.library.import_here(str(built.path), embed=False)
        model = runtime.learner.model()
        found = errors(model, built)
        assert len(found) == len(built.stability) == 52
        assert statistics.median(found) < 0.01 and max(found) < 0.03, (
            statistics.median(found), max(found))
        for statement, theirs in built.difficulty.items():
            assert model.card(node_id_for(statement)).card.difficulty == pytest.approx(
                theirs, rel=0.01)
        anki = report.anki
        assert anki["reviews_cram_left_out"] == built.cram_off > 0
        assert anki["reviews_left_out"] == built.manual > 0
        assert anki["reviews"] == built.answers and anki["notes_in_graph"] == 52


async def test_a_kana_deck_keeps_every_note_and_its_history(tmp_path):
    built = fidelity_collection(tmp_path, cards=2)
    async with scripted_app(None) as (api, runtime):
        report = await runtime.library.import_here(str(built.path), embed=False)
        assert report.dropped == 0
        model = runtime.learner.model()
        for front, back in KANA:
            node = node_id_for(f"{front} — {back}")
            assert model.node(node).text == f"{front} — {back}"
            assert model.card(node).reviews >= 4  # its answers came with it
        shown = (await api.http.get(f"/api/review?node={node_id_for('あ — a')}")).json()
        assert shown["due"][0]["prompt"] == "あ" and shown["due"][0]["answer"] == "a"


async def test_each_decks_fsrs_options_become_its_review_settings(tmp_path):
    built = fidelity_collection(tmp_path, cards=2)
    async with scripted_app(None) as (api, runtime):
        await runtime.library.import_here(str(built.path), embed=False)
        decks = (await api.http.get("/api/settings")).json()["review"]["decks"]
        custom = decks["Fidelity::Custom"]
        assert custom["parameters"] == pytest.approx(CUSTOM_PARAMS, rel=1e-6)
        assert custom["desired_retention"] == CUSTOM_RETENTION
        assert decks["Fidelity::Varied"] == {"parameters": [], "desired_retention": 0.9}


async def test_a_later_day_start_is_the_learners_and_anki_agrees(tmp_path):
    """Anki at "next day starts at 6": with the same setting here, the cards still match."""
    built = fidelity_collection(tmp_path, rollover=6)
    async with scripted_app(None) as (api, runtime):
        r = await api.http.put("/api/settings/review", json={"day_starts_hour": 6})
        assert r.status_code == 200 and r.json()["review"]["day_starts_hour"] == 6
        await runtime.library.import_here(str(built.path), embed=False)
        found = errors(runtime.learner.model(), built)
        assert statistics.median(found) < 0.01 and max(found) < 0.03


async def test_a_cards_fsrs_state_is_readable_without_grading(tmp_path):
    """``GET /api/review?node=`` and the node detail show Anki's stability and difficulty, the
    due date and the answers counted — and reading them writes no grade."""
    built = fidelity_collection(tmp_path, cards=2)
    statement, theirs = next(iter(built.stability.items()))
    node = node_id_for(statement)
    async with scripted_app(None) as (api, runtime):
        await runtime.library.import_here(str(built.path), embed=False)
        before = runtime.learner.model().card(node).reviews
        card = (await api.http.get(f"/api/review?node={node}")).json()["due"][0]
        assert card["stability"] == pytest.approx(theirs, rel=0.01)
        assert card["difficulty"] == pytest.approx(built.difficulty[statement], rel=0.01)
        assert card["reviews"] == before > 0 and card["due_at"]
        detail = (await api.http.get(f"/api/graph/nodes/{node}")).json()["review"]
        assert detail == {"stability": card["stability"], "difficulty": card["difficulty"],
                          "due_at": card["due_at"], "reviews": before}
        assert runtime.learner.model().card(node).reviews == before  # read-only
        topic = (await api.http.get(
            f"/api/graph/nodes/{node_id_for('Fidelity')}")).json()["review"]
        assert topic == {"stability": None, "difficulty": None, "due_at": None, "reviews": 0}


@pytest.mark.parametrize("legacy", [False, True], ids=["anki21b", "legacy"])
async def test_a_card_suspended_in_anki_is_out_of_review_here(tmp_path, legacy):
    from anki.collection import DeckIdLimit, ExportAnkiPackageOptions

    from tests.support.real_anki import collection

    path = tmp_path / "suspended.apkg"
    with collection(tmp_path) as col:
        deck = col.decks.id("Suspended")
        ids = {}
        for front, back in (("Kept question", "kept answer"), ("Dropped question", "dropped")):
            note = col.new_note(col.models.by_name("Basic"))
            note["Front"], note["Back"] = front, back
            col.add_note(note, deck)
            ids[front] = note.cards()[0].id
        col.sched.suspend_cards([ids["Dropped question"]])  # Anki's own "Suspend"
        col.export_anki_package(out_path=str(path), limit=DeckIdLimit(deck),
                                options=ExportAnkiPackageOptions(
                                    with_scheduling=True, with_deck_configs=True,
                                    with_media=False, legacy=legacy))
    async with scripted_app(None) as (api, runtime):
        report = await runtime.library.import_here(str(path), embed=False)
        assert report.anki["cards_suspended"] == 1
        queue = (await api.http.get("/api/review?limit=100")).json()
        dropped = node_id_for("Dropped question — dropped")
        assert [c["node_id"] for c in queue["suspended"]] == [dropped]
        assert dropped not in [d["node_id"] for d in queue["due"]]
        assert node_id_for("Kept question — kept answer") in [d["node_id"] for d in queue["due"]]
