"""What runs after every turn: usage fold, session title (labeler role), and ``TurnEnded``
published for the other systems' reactions (the library's extraction trigger, the workbench's
delivery; the table is in ``server/app.py``).

Each is error-contained and fire-and-forget (a task of the app's supervisor): a failure logs one
``[chat <id>]`` line and never touches the response, the record or the turn registry.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from studyhall.core.agents.labeler import PROMPT_NAME as LABELER_PROMPT
from studyhall.core.agents.labeler import clean_title, title_messages
from studyhall.core.contracts.models import ModelRequest, StreamedText
from studyhall.core.contracts.steers import steer_part
from studyhall.core.ports.models import ChatModel
from studyhall.core.ports.storage import ChatStore
from studyhall.core.ports.system import Clock
from studyhall.server.runtime.events import TurnEnded
from studyhall.server.runtime.reactions import Reactions
from studyhall.server.runtime.supervisor import Supervisor

log = logging.getLogger("studyhall.turns")


class AfterTurn:
    def __init__(
        self,
        *,
        chat_store: ChatStore,
        chat_model: ChatModel,
        clock: Clock,
        prompt: Callable[[str], str],
        supervisor: Supervisor,
        reactions: Reactions,
    ) -> None:
        self._store = chat_store
        self._model = chat_model
        self._clock = clock
        self._prompt = prompt
        self._reactions = reactions
        self._supervisor = supervisor
        self._titled: set[str] = set()  # chats whose title was tried in this process

    def run(self, outcome: TurnEnded) -> None:
        """Start every seam; returns at once (the turn ends right after)."""
        self._contained(outcome.chat_id, "usage fold", self.fold_usage, outcome)
        self._spawn(outcome.chat_id, "title", lambda: self.name_chat(outcome.chat_id))
        self._reactions.publish(outcome)  # each reaction in its own task, contained

    # --- the seams ------------------------------------------------------------------------

    def fold_usage(self, outcome: TurnEnded) -> None:
        u = outcome.usage
        log.info(
            "[chat %s] turn %s: %d message(s), tokens in=%s out=%s, cost=%s",
            outcome.chat_id,
            outcome.reason,
            len(outcome.message_ids),
            "?" if u is None or u.input_tokens is None else u.input_tokens,
            "?" if u is None or u.output_tokens is None else u.output_tokens,
            "?" if u is None or u.cost_usd is None else f"${u.cost_usd:.4f}",
        )

    async def name_chat(self, chat_id: str) -> None:
        """Title an untitled session once the learner has said something (one try/process)."""
        record = self._store.get(chat_id)
        if record is None or record.title or chat_id in self._titled:
            return
        if not any(m.role == "user" and steer_part(m) is None for m in record.messages):
            return
        self._titled.add(chat_id)  # a failing labeler is not called again every turn
        base = self._prompt(LABELER_PROMPT)
        request = ModelRequest(
            role="labeler", messages=tuple(title_messages(base, record.topic, record.messages))
        )
        text = [e.text async for e in self._model.stream(request) if isinstance(e, StreamedText)]
        title = clean_title("".join(text))
        if title:
            self._store.set_title(chat_id, title, self._clock.now())
            log.info("[chat %s] titled %r", chat_id, title)

    # --- containment ----------------------------------------------------------------------

    def _contained(
        self, chat_id: str, name: str, fn: Callable[[TurnEnded], None], outcome: TurnEnded
    ) -> None:
        try:
            fn(outcome)
        except Exception as e:  # noqa: BLE001 — a side channel never touches the turn
            log.warning("[chat %s] %s failed: %s: %s", chat_id, name, type(e).__name__, e)

    def _spawn(self, chat_id: str, name: str, work: Callable[[], Awaitable[None]]) -> None:
        # ``work`` is called inside the task: a task cancelled before it starts (shutdown)
        # leaves no coroutine that was never awaited.
        async def contained() -> None:
            try:
                await work()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001 — a side channel never touches the turn
                log.warning("[chat %s] %s failed: %s: %s", chat_id, name, type(e).__name__, e)

        self._supervisor.spawn(f"{name} {chat_id}", contained())

