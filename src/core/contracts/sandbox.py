"""What the headless-browser sandbox reports about a page or an image."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PageCheck:
    """What loading a generated HTML demo, offline, showed.

    ``blocked`` lists the requests the page tried to make (every one is refused: demos run
    with the network off); ``rendered`` is False when nothing visible was on the page;
    ``timed_out`` when the page did not finish loading (an endless loop, say).
    """

    console_errors: tuple[str, ...] = ()
    page_errors: tuple[str, ...] = ()
    blocked: tuple[str, ...] = ()
    rendered: bool = True
    timed_out: bool = False


@dataclass(frozen=True)
class ImageRender:
    """An SVG drawn to pixels: its size, how many distinct colours (capped), and ``ink`` —
    the share of pixels that differ from the most common colour (0.0 = one flat colour)."""

    width: int
    height: int
    colours: int
    ink: float
