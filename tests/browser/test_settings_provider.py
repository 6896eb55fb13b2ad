"""The provider step in the real window at 1024×700, light and dark: it comes first, one choice
with one key sets every role (the "needs a key" note goes away and `n` starts a session), and
the local-server form says what is missing instead of doing nothing."""

from __future__ import annotations

import os

import pytest

from tests.support.live_server import start_server

pytestmark = pytest.mark.browser
THEMES = pytest.mark.parametrize("window", ["light", "dark"], indirect=True)
KEY = "sk-test-Zq8v1TOPSECRETvalue0000abcd"


@THEMES
def test_one_provider_and_one_key_is_enough_and_the_local_form_says_what_is_missing(
        window, tmp_path, request, monkeypatch):
    theme = request.node.callspec.params["window"]
    for name in [k for k in os.environ if k.endswith("_API_KEY")]:
        monkeypatch.delenv(name)
    server = start_server(tmp_path / "data")
    try:
        page = window.page
        page.set_viewport_size({"width": 1024, "height": 700})
        page.goto(server.launch_url)
        page.wait_for_selector("body[data-ready='1']")
        page.get_by_role("link", name="Settings").click()
        page.wait_for_selector("#provider-choice")
        # The provider step is the first thing on the page, above the keys.
        first = page.locator(".settings > section").first
        assert first.get_attribute("class") == "provider-step"
        assert "anthropic" in page.locator(".settings-section .note").inner_text()
        window.shot(f"provider-before-{theme}")

        page.select_option("#provider-choice", "openai")
        assert page.get_by_role("button", name="Use OpenAI").is_visible()
        assert "openai/whisper-1" in page.locator(".provider-plan").inner_text()
        page.fill("#provider-key", KEY)
        page.get_by_role("button", name="Use OpenAI").click()
        page.wait_for_selector(".toast:has-text('Every role now uses OpenAI')")
        page.wait_for_selector(".provider-step:has-text('Every role uses OpenAI now')")
        assert page.locator(".settings-section .note:has-text('need a key')").count() == 0
        assert KEY not in page.content()
        settings = server.services.settings_store.load()
        assert settings.model_for("teacher").model == "openai/gpt-5.1"
        assert settings.model_for("extractor").model == "openai/gpt-4.1-mini"
        assert server.services.secret_store.get("openai") == KEY
        window.shot(f"provider-after-{theme}")

        # A local server: its usual address is a real value, the model name starts empty with
        # nothing in it that looks like one; empty or garbage is refused in words.
        page.select_option("#provider-choice", "ollama")
        assert page.locator("#provider-base").input_value() == "http://localhost:11434"
        assert page.locator("#provider-model").input_value() == ""
        assert page.locator("#provider-model").get_attribute("placeholder") is None
        assert "no speech-to-text model" in page.locator(".provider-plan").inner_text()
        page.get_by_role("button", name="Use Ollama").click()
        page.wait_for_selector(".provider-step .form-error:not([hidden])")
        assert "Type the name of the model Ollama serves" in page.locator(
            ".provider-step .form-error").inner_text()
        page.fill("#provider-model", "llama3.2")
        page.fill("#provider-base", "ftp://somewhere")
        page.get_by_role("button", name="Use Ollama").click()
        page.wait_for_function("() => document.querySelector('.provider-step .form-error')"
                               ".textContent.includes('not an http(s) URL')")
        assert server.services.settings_store.load().model_for("teacher").model == "openai/gpt-5.1"
        window.shot(f"provider-local-error-{theme}")

        # With the provider and its key, `n` starts a session instead of opening Settings.
        page.goto(server.launch_url.split("#")[0] + "#/")
        page.wait_for_selector("body[data-ready='1']")
        page.keyboard.press("n")
        page.wait_for_selector("#new-topic")
    finally:
        server.stop()
