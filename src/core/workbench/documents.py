"""Pulling the generated document (an HTML demo, an SVG diagram) out of a model's answer.

Models wrap documents in Markdown fences and add chatter around them; this takes the fenced
block (or the document itself) and says precisely what is wrong when there is none, so the
builder can be told.
"""

from __future__ import annotations

import re

MAX_HTML_BYTES = 400_000
MAX_SVG_BYTES = 200_000

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)(?:\n[ \t]*```|\Z)", re.DOTALL)


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """``(language, body)`` of every fenced block, in order (an unclosed last one counts)."""
    return [(m.group(1).lower(), m.group(2)) for m in _FENCE.finditer(text)]


def _pick(text: str, languages: tuple[str, ...], marker: re.Pattern[str]) -> str:
    blocks = fenced_blocks(text)
    for lang, body in blocks:
        if lang in languages and marker.search(body):
            return body.strip()
    for _, body in blocks:
        if marker.search(body):
            return body.strip()
    return text.strip()


_HTML_MARK = re.compile(r"<!doctype\s+html|<html[\s>]|<body[\s>]", re.IGNORECASE)
_SVG_MARK = re.compile(r"<svg[\s>]", re.IGNORECASE)


def extract_html(text: str) -> str:
    """The HTML document in the answer; ``ValueError`` with what to do when there is none."""
    html = _pick(text, ("html", "htm"), _HTML_MARK)
    if not _HTML_MARK.search(html):
        raise ValueError("the answer holds no HTML document: answer with one complete, "
                         "self-contained HTML file (<!DOCTYPE html> ... </html>) in a ```html block.")
    start = _HTML_MARK.search(html)
    assert start is not None
    html = html[start.start():]
    size = len(html.encode("utf-8"))
    if size > MAX_HTML_BYTES:
        raise ValueError(f"the demo is {size // 1000} kB; keep it under {MAX_HTML_BYTES // 1000} "
                         "kB (no embedded libraries or large data).")
    return html


def extract_svg(text: str) -> str:
    """The SVG document in the answer (from ``<svg`` to its last ``</svg>``)."""
    body = _pick(text, ("svg", "xml", "html"), _SVG_MARK)
    start = _SVG_MARK.search(body)
    end = body.lower().rfind("</svg>")
    if start is None or end < start.start():
        raise ValueError("the answer holds no SVG: answer with one complete <svg ...>...</svg> "
                         "document in an ```svg block.")
    prolog = body[: start.start()]
    if re.search(r"<!doctype|<!entity", prolog, re.IGNORECASE):
        raise ValueError("do not use a DOCTYPE or entity declarations; start at <svg>.")
    svg = body[start.start(): end + len("</svg>")]
    size = len(svg.encode("utf-8"))
    if size > MAX_SVG_BYTES:
        raise ValueError(f"the SVG is {size // 1000} kB; keep it under {MAX_SVG_BYTES // 1000} kB.")
    return svg
