"""A model on this computer, in the window (issue 31): before its first byte the session says
it is loading the model, with the seconds waited and Stop at hand, then shows the answer;
Settings shows what each local model can do, and a check that finds a model which only prints
text says quizzes are written as JSON instead. Screenshots at 1024×700, light and dark."""

from __future__ import annotations

import pytest
from studyhall.server.services import Services

from tests.support import model_replies as reply
from tests.support.live_server import start_server
from tests.support.model_server import model_server
from tests.support.real_models import point_roles_at
from tests.support.themes import both_themes

pytestmark = pytest.mark.browser
SIZE = {"width": 1024, "height": 700}
ANSWER = "A queue holds the frontier: breadth-first search visits nearer vertices first."


def _serve(models, tmp_path):  # type: ignore[no-untyped-def]
    def prepare(services: Services) -> Services:
        point_roles_at(services.settings_store, models, roles=("prober", "teacher"))
        return services

    return start_server(tmp_path / "data", None, prepare)


def test_a_cold_local_model_is_shown_loading_then_answers(window, tmp_path):
    with model_server() as models:
        models.script("prober", reply.slow(reply.text(ANSWER), 9.0))
        models.script("labeler", *[reply.text("BFS")] * 4)
        server = _serve(models, tmp_path)
        try:
            page = window.page
            page.set_viewport_size(SIZE)
            page.goto(server.launch_url)
            page.wait_for_selector("body[data-ready='1']")
            chat_id = page.evaluate("""async () => (await (await fetch('/api/chats', {method: 'POST',
                headers: {'content-type': 'application/json'}, body: '{"topic": "BFS"}'})).json()).id""")
            page.evaluate(f"location.hash = '#/session/{chat_id}'")
            page.wait_for_selector(".composer-input")
            page.fill(".composer-input", "Teach me breadth-first search")
            page.keyboard.press("Enter")
            loading = ".turn-status:has-text('Loading the model on your computer')"
            page.wait_for_selector(loading, timeout=30_000)
            assert page.get_by_role("button", name="Stop").is_visible()
            assert " s (press Stop" in page.locator(".turn-status").inner_text()
            both_themes(window, "local-wait-01-loading", loading)
            page.wait_for_selector(f".msg-assistant .prose:has-text('{ANSWER[-20:]}')",
                                   timeout=60_000)
            page.wait_for_selector("body[data-turn='idle']")
            assert "Loading the model" not in page.locator(".turn-status").inner_text()
            both_themes(window, "local-wait-02-answered")
            assert not window.page_errors
        finally:
            server.stop()


def test_settings_shows_what_a_local_model_can_do(window, tmp_path):
    with model_server() as models:
        models.script("prober", reply.text("ping, I suppose"))  # printed, not called
        models.script("teacher", reply.tool("ping", {}))
        server = _serve(models, tmp_path)
        try:
            page = window.page
            page.set_viewport_size(SIZE)
            page.goto(server.launch_url)
            page.wait_for_selector("body[data-ready='1']")
            page.evaluate("location.hash = '#/settings'")
            section = page.locator("section[aria-labelledby='capabilities-title']")
            section.locator(".capability").first.wait_for()
            assert section.locator(".capability").count() == 2  # the hosted roles: not listed
            assert "Calls tools: not known yet" in section.inner_text()
            section.get_by_role("button", name="Check again").click()
            page.wait_for_selector(".capability .note:has-text(\"can't call tools\")",
                                   timeout=60_000)
            text = section.inner_text()
            assert "Calls tools: no" in text and "Calls tools: yes" in text
            section.scroll_into_view_if_needed()
            both_themes(window, "local-wait-03-settings-capabilities", ".capability .note")
            assert not window.page_errors
        finally:
            server.stop()
