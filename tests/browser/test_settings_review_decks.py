"""Settings → Review in the real window after a move from Anki: the hour the day starts, and each
imported deck's own options (desired recall; scheduling tuned in Anki or its defaults), in both
themes at 1024×700."""

from __future__ import annotations

import time

import httpx
import pytest

from tests.support.live_server import start_server
from tests.support.real_anki import fidelity_collection
from tests.support.themes import both_themes

pytestmark = pytest.mark.browser
pytest.importorskip("anki")


def test_settings_review_shows_each_anki_decks_options_and_the_day_start(window, tmp_path):
    built = fidelity_collection(tmp_path, cards=2)
    server = start_server(tmp_path / "data", None)
    try:
        with httpx.Client(base_url=server.url,
                          headers={"Authorization": f"Bearer {server.token}"}) as http:
            run = http.post("/api/graph/import", json={"path": str(built.path),
                                                       "embed": False}).json()["run_id"]
            for _ in range(300):
                status = http.get(f"/api/graph/import/{run}").json()["status"]
                if status != "running":
                    break
                time.sleep(0.1)
            assert status == "done"
        page = window.page
        page.set_viewport_size({"width": 1024, "height": 700})
        page.goto(server.launch_url)
        page.wait_for_selector("body[data-ready='1']")
        page.goto(f"{server.url}/#/settings")
        page.wait_for_selector(".anki-deck-table")
        rows = page.locator(".anki-deck-table tbody tr").all_inner_texts()
        assert rows == ["Fidelity › Custom\t85 %\tTuned to your answers in Anki",
                        "Fidelity › Kana\t90 %\tAnki's defaults",
                        "Fidelity › Varied\t90 %\tAnki's defaults"]
        assert page.locator("#review-day").input_value() == "4"
        page.fill("#review-day", "6")
        page.get_by_role("button", name="Save review limits").click()
        page.wait_for_selector(".toast:has-text('Review limits saved')")
        assert server.services.settings_store.load().day_starts_hour == 6
        page.locator(".toast button").first.click()  # dismissed: the shots show the screen
        page.wait_for_selector(".toast", state="detached")
        page.locator(".anki-decks").scroll_into_view_if_needed()
        both_themes(window, "settings-review-anki-decks", ".anki-deck-table")
    finally:
        server.stop()
