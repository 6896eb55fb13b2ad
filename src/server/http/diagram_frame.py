"""The headers of the one page that draws diagrams: ``/diagram-frame.html``.

Mermaid writes ``<style>`` and ``style=""`` into the SVG it lays out, which the app page's CSP
(``style-src 'self'``) refuses. So diagrams are drawn in a frame of their own, sandboxed (an
opaque origin: no cookie, no reach into the app, no network) whose CSP allows inline styles and
nothing else new; it runs only the app's own two scripts and posts the SVG text back, which the
reader shows as an ``<img>``. The two scripts it loads are shared with that opaque origin.
"""

from __future__ import annotations

DIAGRAM_FRAME = "/diagram-frame.html"
DIAGRAM_CSP = "; ".join((  # noqa: FLY002 - one directive per line
    "sandbox allow-scripts",
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'unsafe-inline'",
    "img-src data:",
    "font-src 'self' data:",
    "connect-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
    "frame-ancestors 'self'",
))
DIAGRAM_SCRIPTS = frozenset({"/vendor/mermaid.js", "/js/diagram-frame.js"})


def page_headers(path: str) -> tuple[tuple[str, str], ...]:
    """Headers that replace the app's defaults for ``path`` (none for every other path)."""
    if path == DIAGRAM_FRAME:
        # The app frames it (SAMEORIGIN, frame-ancestors 'self'); nobody else can.
        return (("content-security-policy", DIAGRAM_CSP), ("x-frame-options", "SAMEORIGIN"))
    if path in DIAGRAM_SCRIPTS:  # public code, loaded by the sandboxed (opaque-origin) frame
        return (("cross-origin-resource-policy", "cross-origin"),)
    return ()
