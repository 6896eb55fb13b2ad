"""The Ask history: each question the window asks in a conversation, kept with what came back
(the case, the passages, the answer as streamed) — also when the learner stops it midway, and
when the app dies mid-answer.

Checkpoints, like a session's turn (``core.agents.loop``): the exchange is written before its
passages go out, then again each time ``CHECKPOINT_CHARS`` more characters of the answer have
gone out, marked incomplete; the end of the stream writes it whole. A kill at any point leaves
the question, its passages and what the learner had read, marked cut off.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

from studyhall.core.agents.loop import CHECKPOINT_CHARS
from studyhall.core.contracts.ask_stream import AskEvent, AskFinish, AskSources, AskTextDelta
from studyhall.core.contracts.asking import AskRequest
from studyhall.core.contracts.asks import CUT_OFF, STOPPED, AskExchange
from studyhall.core.contracts.stream import StreamError
from studyhall.core.errors import StudyhallError
from studyhall.core.ports.storage import AskStore
from studyhall.core.ports.system import Clock, Ids

log = logging.getLogger("studyhall.ask")


class _Heard:
    """What the stream said so far, folded into one exchange (the events' own fields)."""

    def __init__(self) -> None:
        self.case: str | None = None
        self.unconfirmed = False
        self.sources: list[dict[str, Any]] = []
        self.parts: list[str] = []
        self.passages: list[dict[str, Any]] = []
        self.answered = False
        self.ended = False  # a finish or an error came: the answer is over
        self.cut_off = True  # until a finish says otherwise
        self.reason: str | None = STOPPED

    def hear(self, event: AskEvent) -> None:
        if isinstance(event, AskSources):
            self.case, self.unconfirmed = event.case, event.unconfirmed
            # As the stream sent them: a field sent only when given is kept only then.
            self.sources = [s.model_dump(exclude_unset=True) for s in event.sources]
        elif isinstance(event, AskTextDelta):
            self.parts.append(event.text)
        elif isinstance(event, AskFinish):
            self.ended, self.cut_off = True, False
            self.answered = event.answered
            self.reason = None if self.answered else (event.reason or "no answer")
            self.passages = [p.model_dump(exclude_unset=True) for p in event.passages or ()]
        elif isinstance(event, StreamError):
            self.ended = True
            self.reason = event.message or "the model failed"


class _Recorder:
    """Writes one exchange of one conversation: at each checkpoint and at the end."""

    def __init__(self, request: AskRequest, store: AskStore, clock: Clock, ids: Ids) -> None:
        assert request.thread_id is not None
        self._request, self._store, self._clock = request, store, clock
        self._thread_id = request.thread_id
        self._id = ids.new("exchange")
        self._asked_at = clock.now()
        self._failed = False  # warn once per exchange, not at every checkpoint

    def exchange(self, heard: _Heard, *, final: bool) -> AskExchange:
        request = self._request
        return AskExchange(
            id=self._id, question=request.question.strip(), asked_at=self._asked_at,
            case=heard.case, unconfirmed=heard.unconfirmed, sources=heard.sources, answer="".join(heard.parts),
            passages=heard.passages, answered=heard.answered and final,
            reason=heard.reason if final else CUT_OFF, complete=final,
            cut_off=heard.cut_off or not final, source_id=request.source_id, t=request.t,
            page=request.page)

    def write(self, heard: _Heard, *, final: bool) -> None:
        # Blocking, on purpose, as a session's checkpoints are: a small file, and the write
        # lands before the next event goes out (or before the stream closes on Stop).
        try:
            self._store.put_exchange(self._thread_id, self.exchange(heard, final=final),
                                     self._clock.now())
        except StudyhallError as e:
            if final or not self._failed:
                log.warning("ask: the question was answered but not kept in the history: %s", e)
            self._failed = True


async def recorded(events: AsyncIterator[AskEvent], request: AskRequest, store: AskStore,
                   clock: Clock, ids: Ids) -> AsyncIterator[AskEvent]:
    """Pass ``events`` through, keeping the exchange in the request's conversation: before the
    passages go out, every ``CHECKPOINT_CHARS`` of answer (incomplete), and at the end
    (finished, failed or stopped). A history that cannot be written never breaks the answer."""
    recorder = _Recorder(request, store, clock, ids)
    heard = _Heard()
    unsaved = 0  # answer characters gone out since the last checkpoint
    written = False  # the final version is on disk
    try:
        async for event in events:
            heard.hear(event)
            if isinstance(event, AskSources):
                recorder.write(heard, final=False)  # the question and its passages, first
            elif isinstance(event, AskTextDelta):
                unsaved += len(event.text)
            if heard.ended and not written:
                recorder.write(heard, final=True)  # before the finish (or error) goes out
                written = True
            yield event
            # After the delta went out, as a session's checkpoint: the record holds only words
            # the learner was sent.
            if unsaved >= CHECKPOINT_CHARS and not written:
                unsaved = 0
                recorder.write(heard, final=False)
    finally:
        if not written:  # stopped, or the stream broke
            recorder.write(heard, final=True)
