"""Settings in the real window: a saved key is masked and never reaches the page again; models
per role, a local server, the connection test; plus the keyboard help and the dark theme."""

from __future__ import annotations

import json

import pytest

from tests.support.big_graph import seed_big_graph
from tests.support.live_server import start_server

pytestmark = pytest.mark.browser

KEY = "sk-test-Zq8v1TOPSECRETvalue0000abcd"


def test_a_saved_key_is_masked_and_never_in_the_page_again(window, tmp_path):
    server = start_server(tmp_path / "data", {"teacher": [{"text": "ok"}]})
    try:
        page = window.page
        page.goto(server.launch_url)
        page.wait_for_selector("body[data-ready='1']")
        page.get_by_role("link", name="Settings").click()
        page.wait_for_selector("#key-value")
        assert str(server.data_dir) in page.locator(".data-dir").inner_text()
        page.select_option("#key-provider", "openai")
        page.fill("#key-value", KEY)
        with page.expect_response("**/api/settings/keys") as saved_key:
            page.get_by_role("button", name="Save key").click()
        assert KEY not in saved_key.value.text()
        page.wait_for_selector(".key-list li:has-text('openai')")
        assert page.locator(".key-list .key-mask").inner_text() == "…abcd"
        assert page.locator("#key-value").input_value() == ""
        assert KEY not in page.content()
        assert server.services.secret_store.get("openai") == KEY  # saved where it belongs
        window.shot("17-settings")

        # A reload, and the whole page again: the key is nowhere in it or in any answer.
        page.reload()
        page.wait_for_selector(".key-list li:has-text('openai')")
        assert KEY not in page.content()
        assert KEY not in page.evaluate("async () => (await fetch('/api/settings')).text()")
        assert KEY not in json.dumps(page.evaluate("() => ({...localStorage})"))

        # The connection test makes one call for the role and says how it went.
        page.select_option("#test-role", "teacher")
        page.get_by_role("button", name="Test connection").click()
        page.wait_for_selector(".test-result.ok")
        assert "answered" in page.locator(".test-result").inner_text()

        # Models per role, with a local server's address; a bad address is refused plainly.
        # They sit under "Advanced" (issue 19: provider + key first).
        page.locator("summary", has_text="Advanced").click()
        page.fill("input[name='model-extractor']", "ollama/llama3.2")
        page.fill("input[name='base-extractor']", "ftp://nope")
        page.get_by_role("button", name="Save models").click()
        page.wait_for_selector(".models-form .form-error:not([hidden])")
        assert "not an http(s) URL" in page.locator(".models-form .form-error").inner_text()
        page.fill("input[name='base-extractor']", "http://localhost:11434")
        page.select_option("select[name='effort-extractor']", "minimal")
        page.get_by_role("button", name="Save models").click()
        page.wait_for_selector(".toast:has-text('Models saved')")
        saved = server.services.settings_store.load().model_for("extractor")
        assert (saved.model, saved.api_base, saved.effort) == (
            "ollama/llama3.2", "http://localhost:11434", "minimal")

        # Removing the key forgets it.
        page.get_by_role("button", name="Remove the openai key").click()
        page.wait_for_selector(".key-list", state="detached")
        assert server.services.secret_store.get("openai") is None
    finally:
        server.stop()


def test_keyboard_help_and_search_shortcut(window, tmp_path):
    server = start_server(tmp_path / "data", None)
    seed_big_graph(server.services.graph_store, 120, clusters=5)
    try:
        page = window.page
        page.goto(server.home_url)
        page.wait_for_selector("body[data-ready='1']")
        page.wait_for_function("() => window.__studyhall && window.__studyhall.graph")
        page.keyboard.press("?")
        page.wait_for_selector("dialog[open] .shortcut-list")
        window.shot("18-keyboard-help")
        page.keyboard.press("Escape")
        page.keyboard.press("/")
        assert page.evaluate("() => document.activeElement.classList.contains('search-input')")
        page.keyboard.type("topic 3")
        page.wait_for_selector(".search-result", timeout=60_000)  # first search loads the encoder
        page.keyboard.press("Enter")
        page.wait_for_selector(".node-panel")
        assert "topic 3" in page.locator(".node-text").inner_text()
    finally:
        server.stop()


@pytest.mark.parametrize("window", ["dark"], indirect=True)
def test_dark_theme_screens(window, tmp_path):
    server = start_server(tmp_path / "data", None)
    seed_big_graph(server.services.graph_store, 400, clusters=6)
    try:
        page = window.page
        page.goto(server.home_url)
        page.wait_for_selector("body[data-ready='1']")
        page.wait_for_function("() => window.__studyhall && window.__studyhall.graph")
        assert page.evaluate("() => document.documentElement.dataset.theme") == "dark"
        page.wait_for_timeout(200)
        window.shot("19-home-dark")
        page.get_by_role("link", name="Settings").click()
        page.wait_for_selector("#key-value")
        window.shot("20-settings-dark")
    finally:
        server.stop()
