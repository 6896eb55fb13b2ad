"""The runtime's events and their one dispatcher: producers publish, the table reacts.

What the runtime's parts tell each other is data: one frozen dataclass per event (below).
``subject`` is the one-line tag (``[chat <id>]``, ``[job <id>]``) a contained handler failure is
logged under, and ``LOG`` the logger it goes to (the producer's own, so a system's log keeps its
failures); a new event is a dataclass here, listed in ``EVENTS``, and its row in the table.

``server/app.py`` builds the bus first, hands it to every producer's constructor, and gives it
the one handler table (``declare``, once) after the parts exist. A producer picks when its
reactions run, as the moment it publishes needs:

- ``publish(event)``: each handler starts in its own task of the app's supervisor and the
  producer goes on at once (a turn's end never waits for extraction or delivery);
- ``notify(event)``: each handler is called now, in table order (cheap synchronous work, e.g.
  waking the activity streams);
- ``await handle(event)``: each handler is called and awaited in table order before the
  producer goes on (a finished job's artifacts are kept before it is delivered; a wake turn
  has begun before the delivery lock is let go).

Every handler is error-contained: a failure logs one ``<subject> <handler> failed: <Type>:
<message>`` line on the event's own logger (``[chat <id>]``, ``[job <id>]``) and never reaches
the producer or the other handlers. Cancellation is not a failure: it passes through.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from types import MappingProxyType
from typing import Any, ClassVar

from studyhall.core.contracts.chat import Usage
from studyhall.core.contracts.graph import QuizVerdict
from studyhall.core.contracts.jobs import Job
from studyhall.core.errors import StudyhallError
from studyhall.server.runtime.supervisor import Supervisor

# --- the events --------------------------------------------------------------------------------


@dataclass(frozen=True)
class TurnEnded:
    """A turn ended (after it was saved, before its chat is free again): which chat, how it
    ended, what it cost. The library's extraction trigger and the workbench's delivery react."""

    LOG: ClassVar[str] = "studyhall.turns"
    chat_id: str
    reason: str  # stop | awaiting-answer | step-limit | error | stopped
    usage: Usage | None
    message_ids: tuple[str, ...]  # the assistant messages this turn wrote

    @property
    def subject(self) -> str:
        return f"[chat {self.chat_id}]"


@dataclass(frozen=True)
class WakeWanted:
    """Steers wait for a chat where no turn runs and no question waits for the learner: the
    turn runner starts a wake turn that claims them (the job runner publishes it, awaited,
    under its per-chat delivery lock)."""

    LOG: ClassVar[str] = "studyhall.jobs"
    chat_id: str

    @property
    def subject(self) -> str:
        return f"[chat {self.chat_id}]"


@dataclass(frozen=True)
class JobChanged:
    """A job's state or spend changed (started, finished, settled, stopped, tokens used)."""

    LOG: ClassVar[str] = "studyhall.jobs"
    job_id: str

    @property
    def subject(self) -> str:
        return f"[job {self.job_id}]"


@dataclass(frozen=True)
class JobFinished:
    """A job's work finished well and its outcome is saved, before it is delivered: what it
    wrote is kept now (idempotent; start-up catches up when a crash cut it)."""

    LOG: ClassVar[str] = "studyhall.jobs"
    job: Job

    @property
    def subject(self) -> str:
        return f"[job {self.job.id}]"


@dataclass(frozen=True)
class GraphMerged:
    """An extraction run merged something into the graph: new nodes want vectors, clusters
    and positions without waiting for the next import."""

    LOG: ClassVar[str] = "studyhall.extraction"
    run_id: str
    source_id: str

    @property
    def subject(self) -> str:
        return f"[extraction {self.run_id}]"


@dataclass(frozen=True)
class QuizGraded:
    """A quiz in a session that studies a note was answered: each question's verdict is
    evidence on that note (the learner ledger records it)."""

    LOG: ClassVar[str] = "studyhall.turns"
    chat_id: str
    node_id: str  # the note the session studies
    quiz_id: str  # the quiz's tool call id
    verdicts: tuple[QuizVerdict, ...]  # one per question, in the quiz's order
    at: datetime

    @property
    def subject(self) -> str:
        return f"[chat {self.chat_id}]"


@dataclass(frozen=True)
class PlanApproved:
    """The learner approved a session's plan (the answer is saved): a session on a goal gives
    the goal its plan."""

    LOG: ClassVar[str] = "studyhall.turns"
    chat_id: str

    @property
    def subject(self) -> str:
        return f"[chat {self.chat_id}]"


Event = TurnEnded | WakeWanted | JobChanged | JobFinished | GraphMerged | QuizGraded | PlanApproved
EVENTS: tuple[type[Event], ...] = (TurnEnded, WakeWanted, JobChanged, JobFinished, GraphMerged,
                                   QuizGraded, PlanApproved)


# --- the dispatcher ----------------------------------------------------------------------------

# A handler takes the event it is listed under; what it returns is awaited by ``handle`` and
# ``publish`` when it is awaitable, and ignored otherwise.
Handler = Callable[[Any], object]
Table = Mapping[type[Event], Sequence[Handler]]


class Reactions:
    def __init__(self, supervisor: Supervisor) -> None:
        self._supervisor = supervisor
        self._table: Mapping[type[Event], tuple[Handler, ...]] | None = None

    def declare(self, table: Table) -> None:
        """Who reacts to what, given once (by the composition root) and never changed."""
        if self._table is not None:
            raise RuntimeError("the reactions table is declared once, in server/app.py")
        self._table = MappingProxyType({kind: tuple(fns) for kind, fns in table.items()})

    @property
    def table(self) -> Mapping[type[Event], tuple[Handler, ...]]:
        """The declared table (read-only; empty until declared)."""
        return self._table if self._table is not None else MappingProxyType({})

    def handlers(self, kind: type[Event]) -> tuple[Handler, ...]:
        return self.table.get(kind, ())

    # --- publishing ---------------------------------------------------------------------------

    def publish(self, event: Event) -> None:
        """Start every reaction in the background (one supervised task each); returns at once."""
        for handler in self.handlers(type(event)):
            self._spawn(event, handler)

    def notify(self, event: Event) -> None:
        """Run every (synchronous) reaction now, in order."""
        for handler in self.handlers(type(event)):
            try:
                handler(event)
            except Exception as e:  # noqa: BLE001 — a reaction never fails its producer
                _failed(event, handler, e)

    async def handle(self, event: Event) -> None:
        """Run and await every reaction, in order, before returning."""
        for handler in self.handlers(type(event)):
            try:
                result = handler(event)
                if inspect.isawaitable(result):
                    await result
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001 — a reaction never fails its producer
                _failed(event, handler, e)

    def _spawn(self, event: Event, handler: Handler) -> None:
        # The handler is called inside the task: a task cancelled before it starts (shutdown)
        # leaves no coroutine that was never awaited.
        async def contained() -> None:
            try:
                result = handler(event)
                if inspect.isawaitable(result):
                    await _awaited(result)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001 — a reaction never fails its producer
                _failed(event, handler, e)

        key = event.subject.strip("[]").split(" ")[-1]
        self._supervisor.spawn(f"{_name(handler)} {key}", contained())


async def _awaited(result: Awaitable[object]) -> None:
    await result


def _name(handler: Handler) -> str:
    return getattr(handler, "__name__", "reaction")


def _failed(event: Event, handler: Handler, error: Exception) -> None:
    # A bug (not one of the app's own errors) keeps its traceback for the log file.
    logging.getLogger(event.LOG).warning(
        "%s %s failed: %s: %s", event.subject, _name(handler), type(error).__name__, error,
        exc_info=not isinstance(error, StudyhallError))
