"""What the runtime's parts tell each other, as data: one frozen dataclass per event.

A producer publishes an event through ``Reactions`` (``reactions.py``); who reacts to it is
declared once, in the table ``server/app.py`` hands the bus. ``subject`` is the one-line tag
(``[chat <id>]``, ``[job <id>]``) a contained handler failure is logged under, and ``LOG`` the
logger it goes to (the producer's own, so a system's log keeps its failures).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from studyhall.core.contracts.chat import Usage
from studyhall.core.contracts.jobs import Job


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


Event = TurnEnded | WakeWanted | JobChanged | JobFinished | GraphMerged
EVENTS: tuple[type[Event], ...] = (TurnEnded, WakeWanted, JobChanged, JobFinished, GraphMerged)
