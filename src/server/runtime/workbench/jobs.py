"""The job runner: background sub-agents and the wake pipeline (the sole writer of jobs/).

- ``spawn`` (called by a teacher tool, mid-turn) saves the job and starts its task; the tool
  returns an acknowledgement at once.
- When the work ends, the outcome (result or error) is saved first — status stays ``running``
  — then ``reconcile`` delivers it: the job's steer is queued on the turn board and, when no
  turn runs and no question waits for the learner, ``WakeWanted`` is published (awaited) and
  the turn runner's wake turn claims it. A running turn
  leaves it for the next claim point (its end starts the wake).
- Only after the steer is in a persisted record and the turn carrying it has ended does the
  job flip to ``done``/``error``. Every decision is ``core.workbench.delivery`` over the
  transcript, so delivery is exactly-once across races and restarts.
- ``recover`` (start-up) re-runs jobs a crash interrupted (once), fails them on the second
  crash, and reconciles finished ones: never delivered twice, never silently lost.
- A job made from a scope (``spawn_scoped``: an artifact from a source, a topic, the graph...)
  has no chat: nothing to deliver, so its outcome is its status at once; at start-up it is
  re-run or failed like the others. Every job that finished well is published as
  ``JobFinished`` and awaited before its delivery (the artifact desk keeps its artifacts);
  every change as ``JobChanged`` (the activity feed wakes its streams).
- ``abort`` cancels the job's task — and with it the model call in flight; the job is marked
  aborted and nothing is delivered. Shutdown (the supervisor cancelling every task) marks a
  running job queued again, so the next start runs it (not counted as a crash).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from studyhall.core.classroom.turn_state import owes_reply, pending_questions
from studyhall.core.contracts.chat import Usage, add_usage
from studyhall.core.contracts.jobs import Job, JobKind
from studyhall.core.contracts.steers import job_steer_id, steer_part
from studyhall.core.errors import JobFailed, NotFound, StudyhallError
from studyhall.core.ports.models import ChatModel
from studyhall.core.ports.storage import ChatStore, JobStore
from studyhall.core.ports.system import Clock, Ids
from studyhall.core.workbench.delivery import (
    INTERRUPTED_AGAIN,
    MAX_RESTARTS,
    TERMINAL,
    delivery_action,
    recovery_action,
    should_wake,
)
from studyhall.core.workbench.steer import job_steer
from studyhall.server.runtime.classroom.turn_board import TurnBoard
from studyhall.server.runtime.reactions import (
    JobChanged,
    JobFinished,
    Reactions,
    TurnEnded,
    WakeWanted,
)
from studyhall.server.runtime.supervisor import Supervisor
from studyhall.server.runtime.workbench.job_work import MeteredModel, WorkDone

log = logging.getLogger("studyhall.jobs")

Work = Callable[[Job, ChatModel], Awaitable[WorkDone]]
MAX_RUNNING_PER_CHAT = 4
ABORTED = "Stopped before it finished; nothing was delivered."
UNEXPECTED = "The job failed unexpectedly (a bug); the log file has the details. Ask again."


class JobRunner:
    def __init__(self, *, job_store: JobStore, chat_store: ChatStore, board: TurnBoard,
                 model: ChatModel, work: Work, clock: Clock, ids: Ids, supervisor: Supervisor,
                 reactions: Reactions, max_running_per_chat: int = MAX_RUNNING_PER_CHAT,
                 max_restarts: int = MAX_RESTARTS) -> None:
        self._jobs = job_store
        self._chats = chat_store
        self._board = board  # whether a turn runs; where a job's steer waits to be claimed
        self._reactions = reactions
        self._model = model
        self._work = work
        self._clock = clock
        self._ids = ids
        self._supervisor = supervisor
        self._max_running = max_running_per_chat
        self._max_restarts = max_restarts
        self._tasks: dict[str, asyncio.Task[None]] = {}  # running job id -> its task (abort)
        self._chat_of: dict[str, str] = {}
        self._usage: dict[str, Usage | None] = {}
        self._aborting: set[str] = set()
        self._queued: set[str] = set()  # steer ids handed to the turn runner by this process
        self._locks: dict[str, asyncio.Lock] = {}
        # Chats that may hold a job not yet settled (this runner is the only writer of jobs/):
        # a turn in any other chat ends without listing the job folder.
        self._open: set[str] = set()

    # --- starting ---------------------------------------------------------------------------

    def capacity(self, chat_id: str) -> str | None:
        """Why no job may start for ``chat_id`` now (too many running), or None."""
        running = sum(1 for job_id, chat in self._chat_of.items()
                      if chat == chat_id and job_id in self._tasks)
        if running >= self._max_running:
            return (f"{running} helpers are already working for this session; wait for one to "
                    "finish (its result arrives as a note) before starting another.")
        return None

    def spawn(self, chat_id: str, kind: JobKind, job_input: dict[str, Any]) -> Job:
        """Save a new job and start it in the background (a teacher tool's ``spawn``)."""
        now = self._clock.now()
        job = Job(id=self._ids.new("job"), chat_id=chat_id, kind=kind, status="running",
                  input=job_input, created_at=now, updated_at=now)
        self._jobs.save(job)
        self._launch(job)
        log.info("[job %s] %s started for chat %s", job.id, kind, chat_id)
        return job

    def spawn_scoped(self, kind: JobKind, job_input: dict[str, Any]) -> Job:
        """Save and start a job that belongs to no session (an artifact made from a scope)."""
        now = self._clock.now()
        job = Job(id=self._ids.new("job"), chat_id=None, kind=kind, status="running",
                  input=job_input, created_at=now, updated_at=now)
        self._jobs.save(job)
        self._launch(job)
        log.info("[job %s] %s started (no session)", job.id, kind)
        return job

    def _launch(self, job: Job) -> None:
        if job.chat_id is not None:
            self._chat_of[job.id] = job.chat_id
            self._open.add(job.chat_id)
        self._usage[job.id] = job.usage  # a re-run keeps counting from what was spent
        task = self._supervisor.spawn(f"job {job.id}", self._execute(job.id))
        self._tasks[job.id] = task
        task.add_done_callback(lambda _t: self._forget(job.id))
        self._changed(job.id)

    def _forget(self, job_id: str) -> None:
        self._tasks.pop(job_id, None)
        self._chat_of.pop(job_id, None)
        self._aborting.discard(job_id)

    # --- the work ---------------------------------------------------------------------------

    async def _execute(self, job_id: str) -> None:
        job = self._jobs.get(job_id)
        if job is None:
            return
        metered = MeteredModel(self._model, lambda u: self._add_usage(job_id, u))
        try:
            done = await self._work(job, metered)
        except asyncio.CancelledError:
            self._cancelled(job_id)
            raise
        except JobFailed as e:
            finished = self._finish(job_id, "error", error=str(e), attempts=e.attempts)
        except StudyhallError as e:
            finished = self._finish(job_id, "error", error=str(e), attempts=1)
        except Exception:
            log.exception("[job %s] failed", job_id)
            finished = self._finish(job_id, "error", error=UNEXPECTED, attempts=1)
        else:
            finished = self._finish(job_id, "done", result=done.result, attempts=done.attempts)
        if finished is None:
            return
        if finished.outcome == "done":
            # Kept before delivery (the artifact desk); a failed keep is logged, and the
            # start-up catch-up keeps it later.
            await self._reactions.handle(JobFinished(finished))
        if finished.chat_id is not None:
            self._open.add(finished.chat_id)
            self._in_background(finished.chat_id, self.reconcile(finished.chat_id))

    def _finish(self, job_id: str, outcome: str, *, result: dict[str, Any] | None = None,
                error: str | None = None, attempts: int) -> Job | None:
        """Save the outcome (status stays running until delivery); None if it cannot be saved."""
        job = self._jobs.get(job_id)
        if job is None or job.status in TERMINAL:
            return None
        now = self._clock.now()
        update: dict[str, Any] = {
            "outcome": outcome, "result": result, "error": error, "attempts": attempts,
            "usage": self._usage.pop(job_id, job.usage), "finished_at": now, "updated_at": now}
        if job.chat_id is None:
            update["status"] = outcome  # no session to deliver to: settled now
        finished = job.model_copy(update=update)
        try:
            self._jobs.save(finished)
        except StudyhallError as e:  # the next start-up re-runs it (the outcome was not kept)
            log.error("[job %s] could not save its outcome: %s", job_id, e)
            return None
        log.info("[job %s] %s after %d attempt(s)", job_id, outcome, attempts)
        self._changed(job_id)
        return finished

    def _cancelled(self, job_id: str) -> None:
        """Cancelled mid-work: aborted (marked, never delivered) or shutting down (re-run)."""
        job = self._jobs.get(job_id)
        if job is None or job.status in TERMINAL or job.outcome is not None:
            return
        now = self._clock.now()
        usage = self._usage.pop(job_id, job.usage)
        if job_id in self._aborting:
            update = {"status": "aborted", "error": ABORTED, "finished_at": now}
            log.info("[job %s] aborted", job_id)
        else:  # a clean shutdown: queued again, the next start runs it (not a crash)
            update = {"status": "queued"}
        try:
            self._jobs.save(job.model_copy(update={**update, "usage": usage, "updated_at": now}))
        except StudyhallError as e:  # left "running": the next start-up re-runs it
            log.error("[job %s] could not record the stop: %s", job_id, e)
        self._changed(job_id)

    def _add_usage(self, job_id: str, usage: Usage) -> None:
        self._usage[job_id] = add_usage(self._usage.get(job_id), usage)
        self._changed(job_id)

    # --- delivery ---------------------------------------------------------------------------

    async def reconcile(self, chat_id: str) -> None:
        """Deliver this chat's finished jobs (wake or queue) and flip the delivered ones."""
        async with self._locks.setdefault(chat_id, asyncio.Lock()):
            jobs = [j for j in self._jobs.list(chat_id) if j.status not in TERMINAL]
            if not jobs:
                self._open.discard(chat_id)
                return
            record = self._chats.get(chat_id)
            if record is None:
                for job in jobs:
                    self._settle(job, "error", "Its session no longer exists.")
                return
            running = self._board.running(chat_id)
            deliver = []
            flipped = 0
            for job in jobs:
                action = delivery_action(job, record.messages, turn_running=running)
                if action == "flip":
                    self._flip(job)
                    flipped += 1
                elif action == "deliver":
                    deliver.append(job)
            if flipped == len(jobs):
                self._open.discard(chat_id)  # every job of the chat is settled now
            if not deliver:
                return
            for job in deliver:
                steer = job_steer(job, self._clock.now())
                if steer.id not in self._queued:
                    self._board.queue_steer(chat_id, steer)
                    self._queued.add(steer.id)
            awaiting = bool(pending_questions(record.messages))
            if should_wake(turn_running=running, awaiting_learner=awaiting):
                await self._wake(chat_id)
            else:
                log.info("[chat %s] %d steer(s) wait for the next turn", chat_id, len(deliver))

    async def _wake(self, chat_id: str) -> None:
        # Awaited: the wake turn has begun (the chat is busy) before the delivery lock is let go.
        await self._reactions.handle(WakeWanted(chat_id))

    def _flip(self, job: Job) -> None:
        current = self._jobs.get(job.id)
        if current is None or current.status in TERMINAL or current.outcome is None:
            return
        self._settle(current, current.outcome, current.error)
        self._queued.discard(job_steer_id(job.id))
        log.info("[job %s] delivered; now %s", job.id, current.outcome)

    def _settle(self, job: Job, status: str, error: str | None) -> None:
        now = self._clock.now()
        self._jobs.save(job.model_copy(update={
            "status": status, "error": error, "updated_at": now,
            "finished_at": job.finished_at or now}))
        self._changed(job.id)

    async def on_turn_end(self, ended: TurnEnded) -> None:
        """A turn ended: flip what that turn delivered, wake for the rest (nothing to do in a
        chat that holds no unsettled job)."""
        if ended.chat_id in self._open:
            await self.reconcile(ended.chat_id)

    # --- start-up, abort ---------------------------------------------------------------------

    async def startup(self) -> None:
        """The app's start-up step (``started``): recovery."""
        await self.recover()

    async def recover(self) -> None:
        """Start-up: re-run or fail interrupted jobs, deliver or flip finished ones."""
        chats: set[str] = set()
        now = self._clock.now()
        for job in self._jobs.list():
            action = recovery_action(job, self._max_restarts)
            if action == "reconcile" and job.chat_id is None:
                self._settle(job, job.outcome or "error", job.error)  # nothing to deliver
            elif action == "reconcile" and job.chat_id is not None:
                chats.add(job.chat_id)
            elif action == "rerun":
                crashed = job.status == "running"
                job = job.model_copy(update={"status": "running", "updated_at": now,
                                             "restarts": job.restarts + (1 if crashed else 0)})
                self._jobs.save(job)
                log.info("[job %s] re-run after %s", job.id, "a crash" if crashed else "a restart")
                self._launch(job)
            elif action == "fail":
                settled = {"status": "error"} if job.chat_id is None else {}
                self._jobs.save(job.model_copy(update={
                    "outcome": "error", "error": INTERRUPTED_AGAIN, "finished_at": now,
                    "updated_at": now, **settled}))
                log.warning("[job %s] interrupted twice; failed", job.id)
                if job.chat_id is not None:
                    chats.add(job.chat_id)
        self._open.update(chats)
        for chat_id in sorted(chats):
            try:
                await self.reconcile(chat_id)
                await self._answer_tail_steer(chat_id)
            except StudyhallError as e:
                log.error("[chat %s] could not deliver its jobs at start-up: %s", chat_id, e)

    async def _answer_tail_steer(self, chat_id: str) -> None:
        """A delivered steer the teacher never answered (the process died in its wake turn)
        still gets its wake turn."""
        record = self._chats.get(chat_id)
        if record is None or not record.messages or self._board.running(chat_id):
            return
        marker = steer_part(record.messages[-1])
        if marker is not None and marker.kind == "job" and owes_reply(record.messages) \
                and not pending_questions(record.messages):
            await self._wake(chat_id)

    async def abort(self, job_id: str) -> bool:
        """True abort: cancel the task (and its model call); False once it has finished."""
        job = self._jobs.get(job_id)
        if job is None:
            raise NotFound(f"There is no job {job_id!r}.")
        if job.status in TERMINAL or job.outcome is not None:
            return False
        self._aborting.add(job_id)
        task = self._tasks.get(job_id)
        if task is not None and not task.done():
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        else:
            self._cancelled(job_id)
            self._aborting.discard(job_id)
        current = self._jobs.get(job_id)
        return current is not None and current.status == "aborted"

    # --- helpers ----------------------------------------------------------------------------

    def _in_background(self, chat_id: str, work: Awaitable[None]) -> None:
        async def contained() -> None:
            try:
                await work
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001 — delivery retries at the next turn end / start-up
                log.error("[chat %s] job delivery failed: %s: %s", chat_id, type(e).__name__, e)

        self._supervisor.spawn(f"deliver {chat_id}", contained())

    def _changed(self, job_id: str) -> None:
        self._reactions.notify(JobChanged(job_id))

    def live_usage(self, job_id: str) -> Usage | None:
        return self._usage.get(job_id)
