"""``FunctionChatModel``: the one fake ``ChatModel`` of the tests; a function of the request answers.

Like pydantic-ai's ``FunctionModel(fn)``: ``fn(request)`` returns the events of the answer — a
list (played one by one) or an async iterator (relayed, so ``fn`` may wait, hold mid-stream or
wrap another model) — or raises, or is a coroutine that does either. Every request is kept, so
a test can assert on what the code under test sent. Fixed scripts: ``tests.support.chat_script``.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence

from studyhall.core.contracts.models import ModelEvent, ModelRequest

Answer = Sequence[ModelEvent] | AsyncIterator[ModelEvent]
AnswerFn = Callable[[ModelRequest], Answer | Awaitable[Answer]]


class FunctionChatModel:
    """A ``ChatModel`` whose every answer is ``fn(request)``; ``requests`` records the calls."""

    def __init__(self, fn: AnswerFn) -> None:
        self.fn = fn
        self.requests: list[ModelRequest] = []

    def of(self, role: str) -> list[ModelRequest]:
        """The requests made for ``role``, in order."""
        return [r for r in self.requests if r.role == role]

    def calls(self, role: str) -> int:
        return len(self.of(role))

    def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        # Recorded at the call, like a provider that saw the request; answered lazily, like the
        # real adapter's async generator (an error surfaces when the stream is read).
        self.requests.append(request)
        return self._answer(request)

    async def _answer(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        answer = self.fn(request)
        if inspect.isawaitable(answer):
            answer = await answer
        if isinstance(answer, AsyncIterator):
            async for event in answer:
                yield event
            return
        for event in answer:
            await asyncio.sleep(0)  # a point where the caller may be cancelled, as with a provider
            yield event
