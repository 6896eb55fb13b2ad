"""Child process for the desktop test: open the real window offscreen, report what it saw.

Reads the launch URL on stdin (as the launcher sends it), writes a JSON report to argv[1]:
the page's health state, whether an off-origin navigation was refused, and which URLs were
handed to the system browser.
"""

from __future__ import annotations

import json
import sys
import time
import webbrowser

from studyhall.desktop import window as win

handed_to_browser: list[str] = []


def _fake_open(url: str, new: int = 0, autoraise: bool = True) -> bool:
    handed_to_browser.append(url)
    return True


webbrowser.open = _fake_open  # the window must route external links here, not load them


def _wait_for(window, expression: str, accept, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    value = None
    while time.monotonic() < deadline:
        try:
            value = window.run_js(expression)
        except Exception as e:  # noqa: BLE001 - page not ready yet
            value = f"error: {e}"
        if accept(value):
            return value
        time.sleep(0.1)
    return value


def probe(window) -> None:
    report: dict[str, object] = {}
    try:
        report["health"] = _wait_for(
            window, "document.body ? document.body.dataset.health : ''",
            lambda v: v in ("ok", "error", "bad"),
        )
        report["version"] = window.run_js("document.body.dataset.version || ''")
        report["url_after_load"] = window.get_current_url()
        window.run_js("window.location.href = 'http://example.invalid/elsewhere'; 1")
        time.sleep(1.0)
        report["url_after_external_nav"] = window.get_current_url()
        report["still_app_page"] = window.run_js("document.title")
        report["handed_to_browser"] = list(handed_to_browser)
    except Exception as e:  # noqa: BLE001 - report any failure to the test
        report["probe_error"] = f"{type(e).__name__}: {e}"
    finally:
        with open(sys.argv[1], "w", encoding="utf-8") as f:
            json.dump(report, f)
        window.destroy()


def main() -> int:
    url = sys.stdin.readline().strip()
    problem = win.gui_problem()
    if problem:
        print(f"NO_GUI: {problem}", file=sys.stderr)
        return win.NO_GUI
    win.open_window(url, on_start=probe)
    return 0


if __name__ == "__main__":
    sys.exit(main())
