"""The desktop window: pywebview on Qt WebEngine, pinned to the app's own origin.

Runs in its own process (``python -m studyhall.desktop.window``; the URL arrives on stdin so
the launch token never shows in ``ps``): Qt wants the main thread, and a Qt that cannot start
(no display, missing libraries) must not take the server down with it. Exit code 0 means the
user closed the window; ``NO_GUI`` means no window could be shown (the reason is on stderr).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

NO_GUI = 3
TITLE = "Studyhall"
_HEADLESS_QT = ("offscreen", "minimal", "vnc", "eglfs", "linuxfb")


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def navigation_allowed(target: str, origin: str, *, main_frame: bool) -> bool:
    """The window only ever shows the app: same origin, plus inert frames inside it."""
    if origin_of(target) == origin or target == "about:blank":
        return True
    scheme = urlsplit(target).scheme.lower()
    # Frames of the app's own page may be blob:/data:/about:srcdoc (sandboxed demos).
    return not main_frame and scheme in ("about", "blob", "data")


def open_externally(target: str) -> bool:
    """Links out of the app go to the system browser, never into the window."""
    if urlsplit(target).scheme.lower() not in ("http", "https", "mailto"):
        return False
    import webbrowser  # here: the launcher imports this module for NO_GUI on every start

    return webbrowser.open(target, new=2)


def gui_problem() -> str | None:
    """Why no window can open here, or None when one should."""
    if sys.platform.startswith("linux"):
        qpa = os.environ.get("QT_QPA_PLATFORM", "")
        has_display = bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
        if not has_display and not qpa.startswith(_HEADLESS_QT):
            return "no graphical display (DISPLAY / WAYLAND_DISPLAY are not set)"
    try:
        import webview  # noqa: F401
        from PyQt6 import QtWebEngineWidgets  # noqa: F401
    except ImportError as e:
        return (
            f"the desktop window needs pywebview with Qt WebEngine ({e.name} is missing); "
            "install it with: pip install 'studyhall[desktop]'"
        )
    return None


def _allow_chromium_as_root() -> None:
    # Chromium refuses to start its sandbox as root; the page is our own local origin.
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        flags = os.environ.get("QTWEBENGINE_CHROMIUM_FLAGS", "")
        if "--no-sandbox" not in flags.split():
            os.environ["QTWEBENGINE_CHROMIUM_FLAGS"] = f"{flags} --no-sandbox".strip()


def _pin_navigation(origin: str) -> None:
    """Make pywebview's Qt page refuse every navigation off the app's origin.

    pywebview has no navigation hook, so we give its page class the Qt override. Patched on
    the class itself (not a subclass): its ``__init__`` calls ``super(BrowserView.WebPage, ...)``.
    """
    from webview.platforms import qt

    page = qt.BrowserView.WebPage

    def acceptNavigationRequest(self: Any, url: Any, nav_type: Any, is_main_frame: bool) -> bool:
        target = url.toString()
        if navigation_allowed(target, origin, main_frame=is_main_frame):
            return True
        if is_main_frame:
            open_externally(target)
        return False

    page.acceptNavigationRequest = acceptNavigationRequest  # type: ignore[method-assign]


class FolderPicker:
    """The page's one bridge into the window (``window.pywebview.api``): the system folder
    dialog for imports. It returns a path the learner chose; it reads and opens nothing."""

    def __init__(self) -> None:
        self._window: Any = None

    def attach(self, window: Any) -> None:
        self._window = window

    def pick_folder(self) -> str | None:
        import webview

        if self._window is None:
            return None
        chosen = self._window.create_file_dialog(webview.FOLDER_DIALOG)
        return str(chosen[0]) if chosen else None


def open_window(
    url: str, *, title: str = TITLE, on_start: Callable[[Any], None] | None = None
) -> None:
    """Show the window on ``url`` and block until it closes (must run on the main thread).

    ``on_start(window)`` runs in a background thread once the GUI loop is up (tests use it).
    """
    _allow_chromium_as_root()
    import webview

    _pin_navigation(origin_of(url))
    picker = FolderPicker()
    window = webview.create_window(title, url, width=1280, height=820, min_size=(1024, 700),
                                   js_api=picker)
    picker.attach(window)
    webview.start(on_start, (window,) if on_start else None, gui="qt", private_mode=True)


def main() -> int:
    url = sys.stdin.readline().strip()
    if not url.startswith(("http://127.0.0.1:", "http://localhost:")):
        print("studyhall: the window expects the app's loopback URL on stdin", file=sys.stderr)
        return 2
    problem = gui_problem()
    if problem is not None:
        print(f"studyhall: cannot open a window: {problem}", file=sys.stderr)
        return NO_GUI
    try:
        open_window(url)
    except Exception as e:  # noqa: BLE001 - any backend failure means no window; we fall back
        print(f"studyhall: cannot open a window: {type(e).__name__}: {e}", file=sys.stderr)
        return NO_GUI
    return 0


if __name__ == "__main__":
    sys.exit(main())
