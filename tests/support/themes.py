"""Screenshots of one screen in both themes, for the browser tests."""

from __future__ import annotations

from typing import Any


def both_themes(window: Any, name: str, ready: str | None = None) -> None:
    """A screenshot in light, then in dark (the system preference), then back to light. Reduced
    motion: colour transitions end at once, so a shot never catches one halfway."""
    page = window.page
    page.emulate_media(reduced_motion="reduce")  # before the flip, so no transition starts
    for theme in ("light", "dark"):
        page.emulate_media(color_scheme=theme, reduced_motion="reduce")
        page.wait_for_function(f"() => document.documentElement.dataset.theme === '{theme}'")
        if ready:
            page.wait_for_selector(ready)
        # Two frames: the new colours are computed and painted before the shot is taken.
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => "
                      "requestAnimationFrame(r)))")
        window.shot(f"{name}-{theme}")
    page.emulate_media(color_scheme="light")
