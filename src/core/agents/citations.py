"""Citation markers: ``[1]`` / ``[1, 3]`` in an answer map to the numbered sources it was given.

``MarkerFilter`` checks markers while the answer streams: text is passed on at once, except a
possibly unfinished ``[12`` which waits for its ``]``; a finished marker keeps only the numbers
that name a source (the rest are removed and counted), so the learner never sees an invented
citation, and the streamed text equals the checked text. Code (a fenced block, a backtick
span) is written as the model wrote it: ``x[2]`` in code is an index, not a citation.
"""

from __future__ import annotations

import re

_MARKER = re.compile(r"([ \t]*)\[(\s*\d+(?:\s*,\s*\d+)*\s*)\]")
_OPEN = re.compile(r"[ \t]*\[[\d,\s]*$")
_HOLD_MAX = 24  # longer than any real marker: release it as plain text
_CODE_MARK = re.compile(r"`+|\n")
_TICKS_AT_END = re.compile(r"`+$")


class MarkerFilter:
    def __init__(self, valid: int) -> None:
        self.valid = valid  # markers 1..valid map to a source
        self.removed = 0
        self.used: set[int] = set()
        self._held = ""
        self._fence = 0  # the backticks that opened the fenced block we are in (0: none)
        self._span = 0  # the backticks that opened the code span we are in (0: none)
        self._line_start = True  # only spaces since the last newline

    def _clean(self, text: str) -> str:
        """``text`` with the markers outside code checked; the code state carries on."""
        out: list[str] = []
        at = 0
        for m in _CODE_MARK.finditer(text):
            out.append(self._prose(text[at:m.start()]))
            self._saw_text(text[at:m.start()])
            self._saw_mark(m.group(0))
            out.append(m.group(0))
            at = m.end()
        out.append(self._prose(text[at:]))
        self._saw_text(text[at:])
        return "".join(out)

    def _prose(self, text: str) -> str:
        return text if self._fence or self._span else self._markers(text)

    def _saw_text(self, text: str) -> None:
        if text.strip(" \t"):
            self._line_start = False

    def _saw_mark(self, mark: str) -> None:
        if mark == "\n":
            if self._line_start:
                self._span = 0  # an empty line ends the paragraph: a lone backtick was just that
            self._line_start = True
            return
        ticks = len(mark)
        if self._fence:
            if self._line_start and ticks >= self._fence:
                self._fence = 0
        elif self._span:
            if ticks == self._span:
                self._span = 0
        elif self._line_start and ticks >= 3:
            self._fence = ticks
        else:
            self._span = ticks
        self._line_start = False

    def _markers(self, text: str) -> str:
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
        # An unfinished marker, or a run of backticks the next delta may lengthen, waits.
        tail = _OPEN.search(text) or _TICKS_AT_END.search(text)
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
