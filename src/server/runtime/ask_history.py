"""The Ask history: each question the window asks in a conversation, kept with what came back
(the case, the passages, the answer as streamed) — also when the learner stops it midway."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any

from studyhall.core.contracts.asking import AskRequest
from studyhall.core.contracts.asks import AskExchange, AskThread
from studyhall.core.errors import StudyhallError
from studyhall.core.ports.storage import AskStore
from studyhall.core.ports.system import Clock
from studyhall.server.runtime.asking import AskEvent

log = logging.getLogger("studyhall.ask")

STOPPED = "stopped before the answer finished"


class _Heard:
    """What the stream said so far, folded into one exchange."""

    def __init__(self) -> None:
        self.case: str | None = None
        self.sources: list[dict[str, Any]] = []
        self.parts: list[str] = []
        self.passages: list[dict[str, Any]] = []
        self.answered = False
        self.reason: str | None = STOPPED

    def hear(self, event: AskEvent) -> None:
        if event.name == "sources":
            self.case = event.data.get("case")
            self.sources = list(event.data.get("sources", []))
        elif event.name == "text-delta":
            self.parts.append(str(event.data.get("text", "")))
        elif event.name == "finish":
            self.answered = bool(event.data.get("answered"))
            self.reason = None if self.answered else str(event.data.get("reason") or "no answer")
            self.passages = list(event.data.get("passages", []))
        elif event.name == "error":
            self.reason = str(event.data.get("message") or "the model failed")


def _save(store: AskStore, request: AskRequest, exchange: AskExchange, now: datetime) -> None:
    assert request.thread_id is not None
    thread = store.get(request.thread_id) or AskThread(id=request.thread_id, created_at=now,
                                                       updated_at=now)
    store.save(thread.model_copy(update={"updated_at": now,
                                         "exchanges": [*thread.exchanges, exchange]}))


async def recorded(events: AsyncIterator[AskEvent], request: AskRequest, store: AskStore,
                   clock: Clock) -> AsyncIterator[AskEvent]:
    """Pass ``events`` through; at the end (finished, failed or stopped) append the exchange to
    the request's conversation. A history that cannot be written never breaks the answer."""
    asked_at = clock.now()
    heard = _Heard()
    try:
        async for event in events:
            heard.hear(event)
            yield event
    finally:
        exchange = AskExchange(
            question=request.question.strip(), asked_at=asked_at, case=heard.case,
            sources=heard.sources, answer="".join(heard.parts), passages=heard.passages, answered=heard.answered,
            reason=heard.reason, source_id=request.source_id, t=request.t, page=request.page)
        try:
            # A small file, written once per question; blocking here keeps it written even
            # when the stream is being closed because the learner pressed Stop.
            _save(store, request, exchange, clock.now())
        except StudyhallError as e:
            log.warning("ask: the question was answered but not kept in the history: %s", e)
