"""Node text as Anki field HTML: ``$…$`` / ``$$…$$`` become MathJax ``\\(…\\)`` / ``\\[…\\]``,
fenced and inline code become ``<pre><code>`` / ``<code>``, everything else is HTML-escaped
(a node's text is data, never markup)."""

from __future__ import annotations

import html
import re

# One pass, leftmost first: fenced code, inline code, display maths, inline maths. Inline maths
# needs a non-space after the opening and before the closing dollar, so "$5 and $6" stays text.
_TOKEN = re.compile(
    r"```[^\n`]*\n(?P<fence>.*?)(?:\n)?```"
    r"|`(?P<code>[^`\n]+)`"
    r"|\$\$(?P<display>.+?)\$\$"
    r"|(?<![\\$\w])\$(?P<inline>[^\s$](?:[^$\n]*?[^\s$\\])?)\$(?![\w$])",
    re.DOTALL,
)


def _escape(text: str) -> str:
    return html.escape(text, quote=True)


def field_html(text: str) -> str:
    """``text`` as the HTML of one Anki field (newlines outside code become ``<br>``)."""
    out: list[str] = []
    at = 0
    for match in _TOKEN.finditer(text):
        out.append(_escape(text[at:match.start()]).replace("\n", "<br>"))
        at = match.end()
        if match.group("fence") is not None:
            out.append(f"<pre><code>{_escape(match.group('fence'))}</code></pre>")
        elif match.group("code") is not None:
            out.append(f"<code>{_escape(match.group('code'))}</code>")
        elif match.group("display") is not None:
            out.append(f"\\[{_escape(match.group('display').strip())}\\]")
        else:
            out.append(f"\\({_escape(match.group('inline'))}\\)")
    out.append(_escape(text[at:]).replace("\n", "<br>"))
    return "".join(out)
