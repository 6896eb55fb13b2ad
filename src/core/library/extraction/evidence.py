"""The evidence check the models are not trusted with: a quote must occur verbatim in the view
it cites, after whitespace normalization only — never fuzzy, never repaired."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from studyhall.core.library.extraction.coverage import View

MIN_QUOTE_CHARS = 3


def normalize_ws(text: str) -> str:
    return " ".join(text.split())


@dataclass(frozen=True)
class Cited:
    view: View
    text: str  # the normalized text the quote must occur in


class ViewIndex:
    """Resolves what evidence cites — a message id or a line id ``<message_id>/<n>`` — to the
    text of that view (or line) within one batch."""

    def __init__(self, views: Sequence[View]) -> None:
        self._views = {view.message_id: view for view in views}
        self._joined = {mid: normalize_ws("\n".join(v.lines)) for mid, v in self._views.items()}

    def resolve(self, cited_id: str) -> Cited | None:
        view = self._views.get(cited_id)
        if view is not None:
            return Cited(view, self._joined[cited_id])
        message_id, sep, number = cited_id.rpartition("/")
        view = self._views.get(message_id) if sep else None
        if view is None or not number.isdigit():
            return None
        n = int(number)
        if not 1 <= n <= len(view.lines):
            return None
        return Cited(view, normalize_ws(view.lines[n - 1]))


def check_quote(index: ViewIndex, cited_id: str, quote: str) -> tuple[View | None, str | None]:
    """``(view, None)`` when the quote is backed, else ``(None, reason)``."""
    cited = index.resolve(cited_id)
    if cited is None:
        return None, f"evidence cites {cited_id!r}, which is not a message in this batch"
    wanted = normalize_ws(quote)
    if len(wanted) < MIN_QUOTE_CHARS:
        return None, f"evidence quote for {cited_id!r} is empty or too short to check"
    if wanted not in cited.text:
        return None, f"quote not found verbatim in {cited_id!r}: {_clip(wanted)!r}"
    return cited.view, None


def _clip(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
