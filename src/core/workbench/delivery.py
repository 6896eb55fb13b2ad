"""Exactly-once delivery: pure rules over the transcript and the job records.

A finished job is delivered as a steer whose id is deterministic (``steer_<job_id>``), so
"was it delivered?" is a question about the transcript, answered the same before and after a
restart. The job flips to its outcome only once that steer is in a persisted record and the
turn carrying it has ended; until then every claim point checks the transcript first.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from studyhall.core.contracts.chat import Message
from studyhall.core.contracts.jobs import Job
from studyhall.core.contracts.steers import delivered_steer_ids, job_steer_id

TERMINAL = frozenset({"done", "error", "aborted"})
MAX_RESTARTS = 1  # a job interrupted mid-work by a crash runs again once, then fails

Action = Literal["settled", "working", "deliver", "hold", "flip"]
Recovery = Literal["settled", "reconcile", "rerun", "fail"]

INTERRUPTED_AGAIN = (
    "The app closed while this job was running, and again when it was re-run, so it was "
    "stopped. Ask for it again if it is still needed."
)


def is_delivered(messages: Iterable[Message], job_id: str) -> bool:
    """Is the steer that delivers job ``job_id`` in the transcript?"""
    return job_steer_id(job_id) in delivered_steer_ids(messages)


def delivery_action(job: Job, messages: Iterable[Message], *, turn_running: bool) -> Action:
    """What to do with ``job`` now.

    settled: nothing, it is done/error/aborted. working: its work has not finished.
    deliver: finished and its steer is not in the transcript — hand it to the wake pipeline.
    hold: its steer is in the transcript but the turn carrying it still runs.
    flip: its steer is persisted and no turn runs — set ``status`` to ``outcome``.
    """
    if job.status in TERMINAL:
        return "settled"
    if job.outcome is None:
        return "working"
    if is_delivered(messages, job.id):
        return "hold" if turn_running else "flip"
    return "deliver"


def should_wake(*, turn_running: bool, awaiting_learner: bool) -> bool:
    """Start a wake turn for a steer? Not while a turn runs (it is queued for the next claim
    point) and not while a question waits for the learner (their answer's turn claims it)."""
    return not turn_running and not awaiting_learner


def recovery_action(job: Job, max_restarts: int = MAX_RESTARTS) -> Recovery:
    """At start-up, for a job the last process left behind.

    reconcile: its work finished — deliver or flip it (never re-run, never deliver twice).
    rerun: it was queued, or stopped by a clean shutdown, or a crash cut its first run short.
    fail: a crash cut it short again; it is failed with a reason and that failure delivered.
    """
    if job.status in TERMINAL:
        return "settled"
    if job.outcome is not None:
        return "reconcile"
    if job.status == "queued":
        return "rerun"
    return "rerun" if job.restarts < max_restarts else "fail"
