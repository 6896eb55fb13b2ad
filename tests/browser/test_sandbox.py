"""The Chromium sandbox itself: offline, errors collected, blank pictures told apart."""

from __future__ import annotations

import asyncio

import pytest
from studyhall.adapters.sandbox import ChromiumSandbox
from studyhall.core.errors import SandboxError

pytestmark = pytest.mark.browser

SVG_NS = 'xmlns="http://www.w3.org/2000/svg"'


@pytest.fixture
async def sandbox():
    box = ChromiumSandbox(load_timeout=3)
    yield box
    await box.aclose()  # the warm browser goes with the test


async def test_a_clean_page_passes(sandbox: ChromiumSandbox) -> None:
    check = await sandbox.check_page(
        "<!DOCTYPE html><html><body><h1>Heaps</h1><input type=range min=1 max=9>"
        "<script>document.querySelector('input').oninput = e => "
        "document.querySelector('h1').textContent = 'n=' + e.target.value;</script></body></html>")
    assert check.console_errors == () and check.page_errors == () and check.blocked == ()
    assert check.rendered and not check.timed_out


async def test_errors_on_load_and_in_handlers_and_network_attempts_are_all_reported(
        sandbox: ChromiumSandbox) -> None:
    check = await sandbox.check_page(
        "<!DOCTYPE html><html><head><script src='https://cdn.example.com/lib.js'></script>"
        "<link rel=stylesheet href='http://fonts.example.com/f.css'></head><body>"
        "<button onclick='notDefined()'>go</button>"
        "<script>console.error('drawing failed'); fetch('https://api.example.com/x')"
        ".catch(() => {});</script></body></html>")
    assert check.page_errors == ("notDefined is not defined",)  # from the poked button
    assert check.console_errors == ("drawing failed",)
    assert set(check.blocked) == {"https://cdn.example.com/lib.js",
                                  "http://fonts.example.com/f.css", "https://api.example.com/x"}


async def test_an_endless_loop_times_out_and_the_browser_stays_usable(
        sandbox: ChromiumSandbox) -> None:
    check = await sandbox.check_page(
        "<!DOCTYPE html><html><body><p>x</p><script>while (true) {}</script></body></html>")
    assert check.timed_out
    after = await sandbox.check_page("<!DOCTYPE html><html><body><p>fine</p></body></html>")
    assert after.rendered and not after.timed_out and after.page_errors == ()


async def test_an_empty_page_is_not_rendered(sandbox: ChromiumSandbox) -> None:
    check = await sandbox.check_page("<!DOCTYPE html><html><body></body></html>")
    assert not check.rendered


async def test_an_svg_is_drawn_and_counted(sandbox: ChromiumSandbox) -> None:
    drawn = await sandbox.render_svg(
        f'<svg {SVG_NS} width="200" height="100"><rect x="10" y="10" width="50" height="50" '
        'fill="teal"/><text x="80" y="50">heap</text></svg>')
    assert (drawn.width, drawn.height) == (200, 100) and drawn.colours > 2 and drawn.ink > 0.1
    blank = await sandbox.render_svg(
        f'<svg {SVG_NS} width="200" height="100"><rect width="200" height="100" fill="#fff"/></svg>')
    assert blank.colours == 1 and blank.ink == 0.0
    broken = await sandbox.render_svg("<svg><rect/></svg>")  # no namespace: not an image
    assert (broken.width, broken.height) == (0, 0)


async def test_a_missing_browser_says_how_to_install_it(tmp_path) -> None:
    with pytest.raises(SandboxError, match="apt-get install chromium"):
        await ChromiumSandbox(tmp_path / "no-chromium").check_page("<html></html>")


async def test_nothing_the_page_tries_reaches_the_network(sandbox: ChromiumSandbox) -> None:
    hits: list[bytes] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        hits.append(await reader.read(100))
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    url = f"127.0.0.1:{server.sockets[0].getsockname()[1]}"
    async with server:
        check = await sandbox.check_page(
            f'<!DOCTYPE html><html><body><p>x</p><img src="http://{url}/i.png"><script>'
            f'const ws = new WebSocket("ws://{url}/ws"); ws.onerror = () => {{}};'
            f'navigator.sendBeacon("http://{url}/beacon", "x");'
            f'fetch("http://{url}/f").catch(() => {{}}); new EventSource("http://{url}/es");'
            "</script></body></html>")
        await asyncio.sleep(0.5)  # give a stray connection time to arrive
    assert hits == []
    assert {f"http://{url}/i.png", f"http://{url}/f", f"http://{url}/beacon"} <= set(check.blocked)
    assert any("WebSocket" in e for e in check.console_errors)  # refused by the dead proxy
