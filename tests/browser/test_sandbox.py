"""The Chromium sandbox itself: offline, errors collected, blank pictures told apart."""

from __future__ import annotations

import pytest
from studyhall.adapters.sandbox import ChromiumSandbox
from studyhall.core.errors import SandboxError

pytestmark = pytest.mark.browser

SVG_NS = 'xmlns="http://www.w3.org/2000/svg"'


async def test_a_clean_page_passes() -> None:
    check = await ChromiumSandbox().check_page(
        "<!DOCTYPE html><html><body><h1>Heaps</h1><input type=range min=1 max=9>"
        "<script>document.querySelector('input').oninput = e => "
        "document.querySelector('h1').textContent = 'n=' + e.target.value;</script></body></html>")
    assert check.console_errors == () and check.page_errors == () and check.blocked == ()
    assert check.rendered and not check.timed_out


async def test_errors_on_load_and_in_handlers_and_network_attempts_are_all_reported() -> None:
    check = await ChromiumSandbox().check_page(
        "<!DOCTYPE html><html><head><script src='https://cdn.example.com/lib.js'></script>"
        "<link rel=stylesheet href='http://fonts.example.com/f.css'></head><body>"
        "<button onclick='notDefined()'>go</button>"
        "<script>console.error('drawing failed'); fetch('https://api.example.com/x')"
        ".catch(() => {});</script></body></html>")
    assert check.page_errors == ("notDefined is not defined",)  # from the poked button
    assert check.console_errors == ("drawing failed",)
    assert set(check.blocked) == {"https://cdn.example.com/lib.js",
                                  "http://fonts.example.com/f.css", "https://api.example.com/x"}


async def test_an_endless_loop_times_out_instead_of_hanging() -> None:
    check = await ChromiumSandbox(load_timeout=3).check_page(
        "<!DOCTYPE html><html><body><p>x</p><script>while (true) {}</script></body></html>")
    assert check.timed_out


async def test_an_empty_page_is_not_rendered() -> None:
    check = await ChromiumSandbox().check_page("<!DOCTYPE html><html><body></body></html>")
    assert not check.rendered


async def test_an_svg_is_drawn_and_counted() -> None:
    sandbox = ChromiumSandbox()
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
