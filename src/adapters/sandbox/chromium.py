"""``ChromiumSandbox``: the ``Sandbox`` port over the system's headless Chromium (Playwright).

Generated pages never touch the network: the page itself is served from a route, every other
request is refused (and reported, so the builder learns to inline it), and the browser starts
with background networking off and a dead proxy behind the routes as a second wall. A demo
is loaded, given a moment to run, poked (buttons clicked, sliders moved to their ends), and
its console errors and uncaught exceptions collected. An SVG is drawn as an image (scripts
never run in an image), screenshotted to PNG, and the PNG's pixels counted.

One browser is kept warm (``WarmBrowser``); each check gets its own isolated context, under a
small semaphore so a few jobs at once cannot swamp the machine. Cancelling a check closes its
context.
"""

from __future__ import annotations

import asyncio
import base64
import html
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from studyhall.adapters.sandbox.browser import WarmBrowser, playwright_api
from studyhall.adapters.sandbox.png import colour_stats
from studyhall.core.contracts.sandbox import ImageRender, PageCheck
from studyhall.core.errors import SandboxError

log = logging.getLogger(__name__)

CHROMIUM = Path("/usr/bin/chromium")
ORIGIN = "http://sandbox.studyhall.invalid"
PAGE_URL = f"{ORIGIN}/demo.html"
RENDER_URL = f"{ORIGIN}/render.html"
CHECK_BOX = (480, 360)  # the SVG is looked at within this box (blankness is size-independent)

FLAGS = [
    "--no-sandbox",  # Chromium's own sandbox needs user namespaces, often missing as root
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-default-apps",
    "--disable-domain-reliability",
    "--disable-client-side-phishing-detection",
    "--disable-extensions",
    "--disable-sync",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--metrics-recording-only",
    "--mute-audio",
    "--no-first-run",
    "--no-default-browser-check",
    "--proxy-server=http://127.0.0.1:9",  # anything that slips past the routes goes nowhere
    "--proxy-bypass-list=<-loopback>",
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
]

_RENDERED = """() => {
  const body = document.body;
  if (!body) return false;
  if ((body.innerText || '').trim().length > 0) return true;
  return Array.from(body.querySelectorAll('canvas, svg, img, video, div, button, input'))
    .some(el => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
                  return r.width > 0 && r.height > 0 && s.visibility !== 'hidden'; });
}"""

# Exercise the page like a curious learner: no submits, no navigation.
_POKE = """() => {
  document.addEventListener('submit', e => e.preventDefault(), true);
  for (const el of Array.from(document.querySelectorAll('input[type=range]')).slice(0, 4)) {
    for (const v of [el.max || '100', el.min || '0']) {
      el.value = v;
      el.dispatchEvent(new Event('input', {bubbles: true}));
      el.dispatchEvent(new Event('change', {bubbles: true}));
    }
  }
  const buttons = Array.from(document.querySelectorAll('button, input[type=button]'))
    .filter(b => !b.disabled).slice(0, 4);
  for (const b of buttons) b.click();
  return buttons.length;
}"""

_SIZE = """async () => {
  const img = document.getElementById('v');
  try { await img.decode(); } catch (e) { return null; }
  return [img.naturalWidth, img.naturalHeight];
}"""


def _render_page(svg: str) -> str:
    source = "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode()
    w, h = CHECK_BOX
    return ("<!DOCTYPE html><html><body style='margin:0;background:#fff'>"
            f"<img id='v' alt='' src='{html.escape(source, quote=True)}' "
            f"style='display:block;max-width:{w}px;max-height:{h}px'></body></html>")


class ChromiumSandbox:
    def __init__(self, executable: Path = CHROMIUM, *, load_timeout: float = 10.0,
                 settle_ms: int = 300, max_pages: int = 2, idle_seconds: float = 120.0) -> None:
        self._executable = Path(executable)
        self._load_timeout = load_timeout
        self._settle_ms = settle_ms
        self._slots = asyncio.Semaphore(max_pages)
        self._browser = WarmBrowser(self._executable, FLAGS, idle_seconds)

    def __repr__(self) -> str:
        return f"ChromiumSandbox({str(self._executable)!r})"

    async def aclose(self) -> None:
        """Close the warm browser (the app's shutdown)."""
        await self._browser.aclose()

    @asynccontextmanager
    async def _context(self, pages: dict[str, str], blocked: list[str]) -> AsyncIterator[Any]:
        """A fresh, isolated browser context whose only reachable URLs are ``pages``."""
        if not self._executable.is_file():
            raise SandboxError(
                f"Chromium is not installed at {self._executable}, so generated demos and "
                "diagrams cannot be checked (they are never delivered unchecked). Install it "
                "(on Debian/Ubuntu: sudo apt-get install chromium) and ask again.")
        _, playwright_error = playwright_api()

        async def route(r: Any) -> None:
            url = r.request.url
            if url in pages:
                await r.fulfill(status=200, content_type="text/html; charset=utf-8",
                                body=pages[url])
            elif url == f"{ORIGIN}/favicon.ico":
                await r.fulfill(status=204, body="")
            else:
                blocked.append(url)
                await r.abort("blockedbyclient")

        async with self._slots:
            try:
                browser = await self._browser.acquire()
                try:
                    context = await browser.new_context(
                        viewport={"width": 900, "height": 700}, service_workers="block",
                        accept_downloads=False)
                    try:
                        await context.route("**/*", route)
                        yield context
                    finally:
                        await context.close()  # also ends a page stuck in an endless loop
                finally:
                    self._browser.release()
            except playwright_error as e:
                raise SandboxError(f"The headless browser failed: {str(e).splitlines()[0]}. "
                                   "Try again; if it keeps failing, reinstall chromium.") from e

    async def check_page(self, page_html: str) -> PageCheck:
        console: list[str] = []
        errors: list[str] = []
        blocked: list[str] = []
        timed_out, rendered = False, False
        async with self._context({PAGE_URL: page_html}, blocked) as context:
            page = await context.new_page()
            page.on("console", lambda m: console.append(m.text)
                    if m.type in ("error", "assert") else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("dialog", lambda d: asyncio.ensure_future(d.dismiss()))
            try:
                await asyncio.wait_for(self._exercise(page), self._load_timeout)
                rendered = bool(await asyncio.wait_for(page.evaluate(_RENDERED), 5))
            except TimeoutError:  # asyncio's and Playwright's both: the page never settled
                timed_out = True
            except playwright_api()[1] as e:
                if type(e).__name__ == "TimeoutError":
                    timed_out = True
                else:  # the page killed its own tab: the page's failure, not the sandbox's
                    errors.append(f"the page crashed its tab ({str(e).splitlines()[0]})")
        if blocked:  # the refused loads already say it, better than "Failed to load resource"
            console = [c for c in console if not c.startswith("Failed to load resource")]
        return PageCheck(console_errors=tuple(console), page_errors=tuple(errors),
                         blocked=tuple(dict.fromkeys(blocked)), rendered=rendered,
                         timed_out=timed_out)

    async def _exercise(self, page: Any) -> None:
        await page.goto(PAGE_URL, wait_until="load")
        await page.wait_for_timeout(self._settle_ms)
        if await page.evaluate(_POKE):
            await page.wait_for_timeout(self._settle_ms)

    async def render_svg(self, svg: str) -> ImageRender:
        blocked: list[str] = []
        async with self._context({RENDER_URL: _render_page(svg)}, blocked) as context:
            page = await context.new_page()
            try:
                await asyncio.wait_for(page.goto(RENDER_URL, wait_until="load"), self._load_timeout)
                size = await asyncio.wait_for(page.evaluate(_SIZE), self._load_timeout)
                if not size or not size[0] or not size[1]:
                    return ImageRender(0, 0, 0, 0.0)
                png = await asyncio.wait_for(page.locator("#v").screenshot(type="png"),
                                             self._load_timeout)
            except TimeoutError as e:
                raise SandboxError("Drawing the diagram timed out; try a simpler one.") from e
        _, _, colours, ink = await asyncio.to_thread(colour_stats, png)  # CPU: off the loop
        return ImageRender(width=int(size[0]), height=int(size[1]), colours=colours, ink=ink)
