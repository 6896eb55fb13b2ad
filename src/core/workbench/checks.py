"""What the sandbox saw, as problems a builder can fix (``[]`` = the result may be delivered)."""

from __future__ import annotations

from studyhall.core.contracts.sandbox import ImageRender, PageCheck

MAX_LISTED = 8
MIN_INK = 0.001  # below this share of pixels off the background, the picture is blank


def _cut(text: str, limit: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def page_problems(check: PageCheck) -> list[str]:
    problems: list[str] = []
    if check.timed_out:
        problems.append("the page did not finish loading in time (an endless loop or a "
                        "blocking script?); keep start-up work small and never block.")
    problems += [f"uncaught error: {_cut(e)}" for e in check.page_errors[:MAX_LISTED]]
    problems += [f"console error: {_cut(e)}" for e in check.console_errors[:MAX_LISTED]]
    if check.blocked:
        shown = ", ".join(_cut(u, 120) for u in check.blocked[:MAX_LISTED])
        problems.append(f"the page tried to load {shown}; demos run with the network off, so "
                        "inline every script, style, font and image (no CDNs).")
    if not check.rendered and not check.timed_out:
        problems.append("nothing visible rendered; the page body is empty or hidden.")
    return problems


def render_problems(render: ImageRender) -> list[str]:
    if render.width <= 0 or render.height <= 0:
        return [("the SVG drew nothing (zero size); give the root <svg> a viewBox and a "
                 "width and height.")]
    if render.colours <= 1 or render.ink < MIN_INK:
        return [("the SVG rendered as a blank, single-colour image; draw visible shapes and "
                 "text inside the viewBox (check coordinates, fills and strokes).")]
    return []
