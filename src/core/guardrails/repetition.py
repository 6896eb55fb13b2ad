"""The repetition guard: a model that loops (one line again and again, or one phrase with no
line break) is stopped early, the stream ending with what was useful and finish reason
``repetition`` — instead of running for minutes until its token cap or the client's timeout.

A ``ChatModel`` decorator. A repeat of a line already seen is held back until the next
different line shows it was no loop; when a line comes back ``LINE_REPEATS`` more times the
held copies are dropped and the stream ends (the learner keeps the first one). A run of
``NGRAM`` words seen ``NGRAM_REPEATS`` times ends it too. Linear in the text.
"""

from __future__ import annotations

from collections import deque
from collections.abc import AsyncIterator

from studyhall.core.contracts.chat import Usage
from studyhall.core.contracts.models import (
    FinishEvent,
    ModelEvent,
    ModelRequest,
    StreamedText,
    UsageEvent,
)
from studyhall.core.ports.models import ChatModel

LINE_REPEATS = 3  # a line back this many more times is a loop
MIN_LINE = 8  # shorter lines (a fence, a rule, "Yes.") repeat in good text
NGRAM, NGRAM_REPEATS = 8, 12
_WORD_CHARS = 64
_PREFIX_LINES = 200  # the last distinct lines a line in flight is compared with


class RepeatWatch:
    """Streamed text in, the text that may be shown now out, and whether it is looping."""

    def __init__(self, line_repeats: int = LINE_REPEATS, ngram: int = NGRAM,
                 ngram_repeats: int = NGRAM_REPEATS) -> None:
        self._line_repeats = line_repeats
        self._ngram, self._ngram_repeats = ngram, ngram_repeats
        self._counts: dict[str, int] = {}
        self._recent: deque[str] = deque(maxlen=_PREFIX_LINES)
        self._line: list[str] = []  # the line in flight, in pieces
        self._unshown: list[str] = []  # its pieces not sent yet
        self._flowing = False  # it is no repeat: its pieces go out as they come
        self._held: list[str] = []  # repeated lines not shown yet
        self._words: deque[str] = deque(maxlen=ngram)
        self._word = ""
        self._grams: dict[tuple[str, ...], int] = {}
        self.looping = False

    def feed(self, piece: str) -> str:
        out: list[str] = []
        for k, line in enumerate(piece.split("\n")):
            if k > 0:
                out.append(self._end_line())
                if self.looping:
                    return "".join(out)
            if line:
                self._line.append(line)
                self._unshown.append(line)
        out.append(self._flow())
        text = "".join(out)
        self._count_words(text)
        return "" if self.looping else text

    def rest(self) -> str:
        """What is still held when the stream ends normally (it was no loop)."""
        text = self._release() + "".join(self._unshown)
        self._unshown = []
        return text

    def _end_line(self) -> str:
        whole = "".join(self._line)
        unshown = "".join(self._unshown) + "\n"
        key = whole.strip()
        self._line, self._unshown, self._flowing = [], [], False
        if len(key) < MIN_LINE:
            return self._release() + unshown
        count = self._counts.get(key, 0) + 1
        self._counts[key] = count
        if count == 1:
            self._recent.append(key)
            return self._release() + unshown
        if count > self._line_repeats:
            self.looping = True
            self._held = []
            return ""
        self._held.append(unshown)
        return ""

    def _flow(self) -> str:
        """The line in flight goes out unless it may be a repeat of a line seen before (once it
        is not, the rest of it flows: the lines seen do not change within a line)."""
        if not self._flowing:
            start = "".join(self._line).lstrip()
            if not start or any(seen.startswith(start) for seen in self._recent):
                return ""
            self._flowing = True
        text = self._release() + "".join(self._unshown)
        self._unshown = []
        return text

    def _release(self) -> str:
        held, self._held = "".join(self._held), []
        return held

    def _count_words(self, text: str) -> None:
        for ch in text:
            if not ch.isspace():
                if len(self._word) < _WORD_CHARS:  # a run-on "word" is compared by its start
                    self._word += ch
                continue
            if not self._word:
                continue
            self._words.append(self._word)
            self._word = ""
            if len(self._words) == self._ngram:
                gram = tuple(self._words)
                self._grams[gram] = self._grams.get(gram, 0) + 1
                if self._grams[gram] >= self._ngram_repeats:
                    self.looping = True


class RepetitionGuard:
    """``inner`` with looping answers ended early (``FinishEvent("repetition")``)."""

    def __init__(self, inner: ChatModel) -> None:
        self._inner = inner

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        watch = RepeatWatch()
        events = self._inner.stream(request)
        flushed = False
        try:
            async for event in events:
                if isinstance(event, StreamedText):
                    shown = watch.feed(event.text)
                    if shown:
                        yield StreamedText(shown)
                    if watch.looping:
                        # The call stops here: what it used is unknown, never a guess.
                        yield UsageEvent(usage=Usage())
                        yield FinishEvent(reason="repetition")
                        return
                    continue
                if not flushed:
                    flushed = True
                    rest = watch.rest()
                    if rest:
                        yield StreamedText(rest)
                yield event
        finally:
            close = getattr(events, "aclose", None)
            if close is not None:
                await close()
