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
        assert "Anthropic" in page.locator(".settings-section .note").inner_text()  # by its name
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


def test_with_only_an_openai_key_saved_openai_is_offered_and_one_click_is_enough(
        window, tmp_path, monkeypatch):
    for name in [k for k in os.environ if k.endswith("_API_KEY")]:
        monkeypatch.delenv(name)
    server = start_server(tmp_path / "data")
    server.services.secret_store.set("openai", KEY)  # the learner: one key, mixed roles
    try:
        page = window.page
        page.goto(server.launch_url.split("#")[0] + "#/settings")
        page.wait_for_selector("#provider-choice")
        assert "Anthropic" in page.locator(".settings-section .note").inner_text()  # by its name
        assert page.locator("#provider-choice").input_value() == "openai"
        assert "is saved" in page.locator("#provider-key-help").inner_text()
        page.get_by_role("button", name="Use OpenAI").click()  # no key typed: the saved one
        page.wait_for_selector(".provider-step:has-text('Every role uses OpenAI now')")
        assert page.locator(".settings-section .note:has-text('need a key')").count() == 0
        view = page.evaluate("async () => (await fetch('/api/settings')).json()")
        assert view["needed_keys"] == [] and view["provider"] == "openai"
    finally:
        server.stop()


def test_advanced_keeps_transcription_off_until_a_transcriber_is_typed(window, tmp_path):
    server = start_server(tmp_path / "data")
    try:
        page = window.page
        page.goto(server.launch_url.split("#")[0] + "#/settings?advanced=1")
        page.wait_for_selector("#provider-choice")
        page.select_option("#provider-choice", "anthropic")
        page.fill("#provider-key", KEY)
        page.get_by_role("button", name="Use Anthropic").click()
        page.wait_for_selector(".provider-step:has-text('Every role uses Anthropic now')")
        page.locator("details.settings-advanced").evaluate("el => { el.open = true; }")
        transcriber = page.locator("input[name='model-transcriber']")
        assert transcriber.input_value() == ""
        assert "no speech-to-text model" in page.locator("#transcription-off").inner_text()
        page.fill("input[name='model-extractor']", "anthropic/claude-sonnet-4-5")
        page.get_by_role("button", name="Save models").click()
        page.wait_for_selector(".toast:has-text('Models saved')")
        assert server.services.settings_store.load().transcription_off  # still off
        page.locator("details.settings-advanced").evaluate("el => { el.open = true; }")
        page.fill("input[name='model-transcriber']", "openai/whisper-1")
        page.get_by_role("button", name="Save models").click()
        page.wait_for_selector("#transcription-off", state="detached")
        assert server.services.settings_store.load().transcription_off is None
    finally:
        server.stop()
