"""The window against a real model server on 127.0.0.1 (the production litellm adapter, no
script): a stream cut mid-answer is shown as cut, its reason survives a reload, Try again
replaces the cut text once (never a 409 loop); a key is saved for a server address and the
timeouts are set from Settings."""

from __future__ import annotations

import pytest
from studyhall.server.services import Services

from tests.support import model_replies as reply
from tests.support.live_server import start_server
from tests.support.model_server import model_server
from tests.support.real_models import point_roles_at

pytestmark = pytest.mark.browser

WORDS = "Graphs are made of vertices and edges; a tree is a connected graph with no cycles."


def test_a_cut_answer_is_shown_cut_kept_over_a_reload_and_try_again_replaces_it(window, tmp_path):
    with model_server() as models:
        models.script("prober", reply.cut_text(WORDS, after=28), reply.text(WORDS))
        models.script("labeler", *[reply.text("Graphs")] * 4)

        def prepare(services: Services) -> Services:
            point_roles_at(services.settings_store, models)
            return services

        server = start_server(tmp_path / "data", None, prepare)
        try:
            page = window.page
            continues: list[str] = []
            page.on("request", lambda r: continues.append(r.url) if r.url.endswith("/continue") else None)
            page.goto(server.launch_url)
            page.wait_for_selector("body[data-ready='1']")
            chat_id = page.evaluate("""async () => (await (await fetch('/api/chats', {method: 'POST',
                headers: {'content-type': 'application/json'}, body: '{}'})).json()).id""")
            page.evaluate(f"location.hash = '#/session/{chat_id}'")
            page.wait_for_selector(".composer-input")
            page.fill(".composer-input", "hi")
            page.keyboard.press("Enter")
            # the first model call imports litellm in the server (seconds on a busy machine)
            page.wait_for_selector(".inline-error:has-text('broke off')", timeout=60_000)
            assert page.locator(".cut-note").count() == 1
            shown = page.locator(".msg-assistant .prose").first.inner_text()
            assert shown and shown in WORDS and shown != WORDS
            assert "127.0.0.1" in page.locator(".inline-error").inner_text()
            window.shot("real-models-cut")

            page.reload()  # the reason is kept with the record
            page.wait_for_selector(".inline-error:has-text('broke off')")
            assert page.locator(".cut-note").count() == 1

            page.locator(".inline-error").get_by_role("button", name="Try again").click()
            page.wait_for_selector(f".msg-assistant .prose:has-text('{WORDS[-20:]}')")
            page.wait_for_selector("body[data-turn='idle']")
            assert page.locator(".msg-assistant").count() == 1
            assert page.locator(".msg-assistant .prose").inner_text().strip() == WORDS
            assert page.locator(".cut-note").count() == 0
            assert page.locator(".inline-error").count() == 0
            assert len(continues) == 1  # one Try again, one request: no retry loop
            assert not window.page_errors
        finally:
            server.stop()


def test_a_server_that_wants_a_key_is_set_up_from_the_window_and_the_turn_tried_again(
        window, tmp_path):
    key = "sk-local-server-key-000111"
    with model_server(require_key=key) as models:
        models.script("prober", reply.text("Hello, with your key."))
        models.script("labeler", *[reply.text("Keys")] * 4)
        address = f"http://127.0.0.1:{models.port}/v1"

        def prepare(services: Services) -> Services:
            point_roles_at(services.settings_store, models)
            return services

        server = start_server(tmp_path / "data", None, prepare)
        try:
            page = window.page
            page.goto(server.launch_url)
            page.wait_for_selector("body[data-ready='1']")
            chat_id = page.evaluate("""async () => (await (await fetch('/api/chats', {method: 'POST',
                headers: {'content-type': 'application/json'}, body: '{}'})).json()).id""")
            page.evaluate(f"location.hash = '#/session/{chat_id}'")
            page.wait_for_selector(".composer-input")
            page.fill(".composer-input", "hi")
            page.keyboard.press("Enter")
            page.wait_for_selector(".inline-error:has-text('asks the prober for a key')",
                                   timeout=60_000)
            page.reload()  # the reason and both actions survive a reload
            error = page.locator(".inline-error")
            error.wait_for()
            assert address in error.inner_text()
            assert error.get_by_role("button", name="Try again").count() == 1
            error.get_by_role("button", name="Open settings").click()

            page.wait_for_selector("#key-provider")
            page.select_option("#key-provider", address)  # the role's server is offered by name
            page.fill("#key-value", key)
            page.get_by_role("button", name="Save key").click()
            page.wait_for_selector(f".key-list li:has-text('{address}')")
            page.locator("details.settings-advanced summary").click()
            page.fill("#timeout-local", "1800")
            page.get_by_role("button", name="Save timeouts").click()
            page.wait_for_selector(".toast:has-text('Timeouts saved')")
            assert server.services.settings_store.load().timeouts.local_s == 1800

            page.evaluate(f"location.hash = '#/session/{chat_id}'")
            page.locator(".inline-error").get_by_role("button", name="Try again").click()
            page.wait_for_selector(".msg-assistant .prose:has-text('Hello, with your key.')")
            assert page.locator(".inline-error").count() == 0
            assert models.chat_requests()[-1].key == key
        finally:
            server.stop()
