"""Browser fixtures: Debian's chromium driven by Playwright, a guard that fails the test on any
request to a host other than the loopback server, and screenshots into ``screenshots/``."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.support.live_server import CHROMIUM, CHROMIUM_ARGS, SCREENSHOTS

LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    # Per module, not per session: sync Playwright keeps an event loop running on the main
    # thread while it is open, which asyncio tests in other modules here cannot share.
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is missing: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class Window:
    """A page plus what it did: requests off the machine, console errors, uncaught errors."""

    def __init__(self, page) -> None:
        self.page = page
        self.external: list[str] = []
        self.page_errors: list[str] = []
        self.console_errors: list[str] = []

    def shot(self, name: str) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        self.page.screenshot(path=str(path))
        return path


@pytest.fixture
def window(browser, request) -> Iterator[Window]:
    theme = getattr(request, "param", "light")
    context = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme=theme,
                                  device_scale_factor=1)
    page = context.new_page()
    win = Window(page)

    def guard(route) -> None:
        host = urlsplit(route.request.url).hostname or ""
        scheme = urlsplit(route.request.url).scheme
        if scheme in ("http", "https", "ws", "wss") and host not in LOOPBACK:
            win.external.append(route.request.url)
            route.abort()
            return
        route.continue_()

    context.route(re.compile(r".*"), guard)
    page.on("pageerror", lambda e: win.page_errors.append(str(e) + " @ " + str(getattr(e, "stack", ""))))
    def console(message) -> None:
        # A demo's own refused requests are its sandbox working, not the app breaking its CSP.
        if message.type == "error" and "/api/frames/" not in (message.location or {}).get("url", ""):
            win.console_errors.append(message.text)

    page.on("console", console)
    page.set_default_timeout(15_000)
    yield win
    context.close()
    assert not win.external, f"the window tried to reach other hosts: {win.external}"
    assert not win.page_errors, f"uncaught errors in the page: {win.page_errors}"
    csp = [m for m in win.console_errors if "Content Security Policy" in m]
    assert not csp, f"the page broke its own CSP: {csp}"
