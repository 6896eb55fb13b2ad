"""Citation markers: ``[1]`` / ``[1, 3]`` in an answer map to the numbered sources it was given.

``MarkerFilter`` checks markers while the answer streams: text is passed on at once, except a
possibly unfinished ``[12`` which waits for its ``]``; a finished marker keeps only the numbers
that name a source (the rest are removed and counted), so the learner never sees an invented
citation, and the streamed text equals the checked text.
"""

from __future__ import annotations

import re

_MARKER = re.compile(r"([ \t]*)\[(\s*\d+(?:\s*,\s*\d+)*\s*)\]")
_OPEN = re.compile(r"[ \t]*\[[\d,\s]*$")
_HOLD_MAX = 24  # longer than any real marker: release it as plain text


class MarkerFilter:
    def __init__(self, valid: int) -> None:
        self.valid = valid  # markers 1..valid map to a source
        self.removed = 0
        self.used: set[int] = set()
        self._held = ""

    def _clean(self, text: str) -> str:
        def fix(match: re.Match[str]) -> str:
            numbers = [int(n) for n in match.group(2).split(",")]
            keep = [n for n in numbers if 1 <= n <= self.valid]
            self.removed += len(numbers) - len(keep)
            self.used.update(keep)
            return f"{match.group(1)}[{', '.join(str(n) for n in keep)}]" if keep else ""

        return _MARKER.sub(fix, text)

    def feed(self, delta: str) -> str:
        text = self._held + delta
        self._held = ""
        tail = _OPEN.search(text)
        if tail and len(text) - tail.start() <= _HOLD_MAX:
            self._held = text[tail.start():]
            text = text[: tail.start()]
        return self._clean(text)

    def flush(self) -> str:
        text, self._held = self._held, ""
        return self._clean(text)


def check_markers(text: str, valid: int) -> tuple[str, int]:
    """The whole-text form: (text with unmapped markers removed, how many were removed)."""
    f = MarkerFilter(valid)
    out = f.feed(text) + f.flush()
    return out, f.removed
