"""Accessibility as a test: axe-core on every screen of the window, light and dark, at
1024×700 — no critical and no serious violation (contrast, names that match their labels,
scrollable regions reachable by keyboard, headings, landmarks...). A failure lists each rule
with the elements it found, in plain words. Each screen is also saved as a screenshot."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.support.axe import report, violations
from tests.support.every_screen import busy_server, empty_server

pytestmark = pytest.mark.browser

SIZE = {"width": 1024, "height": 700}


@pytest.fixture(scope="module")
def servers(tmp_path_factory) -> Iterator[dict[str, Any]]:
    folder = tmp_path_factory.mktemp("every-screen")
    busy, ids = busy_server(folder)
    fresh = empty_server(folder)
    try:
        yield {"busy": busy, "fresh": fresh, "ids": ids}
    finally:
        busy.stop()
        fresh.stop()


def _ask_a_question(page: Any) -> None:
    page.fill(".ask-input", "How much ATP does glycolysis make?")
    page.keyboard.press("Enter")
    page.wait_for_selector(".ask-exchange[data-state='no-model']", timeout=60_000)  # search loads once


def _open_import(page: Any) -> None:
    page.click("nav.sidebar button:has-text('Import notes')")
    page.wait_for_selector("dialog[open]")


# screen: (server, route, what shows it is ready, what the learner then does)
SCREENS: dict[str, tuple[str, str, str, Callable[[Any], None] | None]] = {
    "home": ("busy", "/", "body[data-view='home'][data-graph-nodes]:not([data-graph-nodes='0'])", None),
    "today": ("busy", "/today", "body[data-today='busy']", None),
    "session": ("busy", "/session/{session}", ".question-dock", None),
    "review": ("busy", "/review", "body[data-review='question']", None),
    "sources": ("busy", "/sources", "body[data-sources='ready']", None),
    "reader": ("busy", "/sources/{note}", "body[data-reader='note']", None),
    "reader-obsidian": ("busy", "/sources/{obsidian}", ".reader-prose[data-diagrams='done']", None),
    "player": ("busy", "/sources/{lecture}?t=754", "body[data-reader='transcript'] .cue.current", None),
    "ask": ("busy", "/ask", "body[data-view='ask'] .ask-input", _ask_a_question),
    "artifacts": ("busy", "/artifacts", "body[data-artifacts='ready'], body[data-artifacts='empty']", None),
    "stats": ("busy", "/stats", "body[data-stats='ready']", None),
    "settings": ("busy", "/settings", "body[data-view='settings'] h1", None),
    "import-dialog": ("fresh", "/sources", "body[data-sources='empty']", _open_import),
    "onboarding": ("fresh", "/", ".welcome h1", None),
}


def open_screen(page: Any, servers: dict[str, Any], screen: str) -> None:
    which, route, ready, then = SCREENS[screen]
    page.goto(f"{servers[which].launch_url}#{route.format(**servers['ids'])}")
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector(ready, timeout=30_000)
    page.wait_for_function("() => document.body.dataset.turn !== 'streaming'")
    if then is not None:
        then(page)


@pytest.mark.parametrize("window", ["light", "dark"], indirect=True)
@pytest.mark.parametrize("screen", list(SCREENS))
def test_no_serious_accessibility_violation(window, servers, screen, request):
    page = window.page
    page.set_viewport_size(SIZE)
    page.emulate_media(reduced_motion="reduce")
    open_screen(page, servers, screen)
    theme = request.node.callspec.params["window"]
    page.wait_for_function(f"() => document.documentElement.dataset.theme === '{theme}'")
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    window.shot(f"a11y-{screen}-{theme}")
    found = violations(page)
    assert not found, f"axe on {screen} ({theme}):\n{report(found)}"
