"""The teacher's job tools (one per job kind: ``research``, ``demo``, ``visual`` and the study
artifacts): server-executed, ack-and-steer.

A call is checked (bad arguments go back to the teacher to fix), then ``spawn`` starts the job
in the background and the tool returns an acknowledgement at once; the teacher keeps teaching
and the result arrives later as a steer. Core owns the tools; the runtime supplies ``spawn``
(and ``capacity``, which refuses a job when too many already run for the chat).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from studyhall.core.agents.tools import Tool, ToolContext, ToolOutcome
from studyhall.core.contracts.chat import DataPart
from studyhall.core.contracts.jobs import Job, JobKind
from studyhall.core.contracts.models import ToolSpec
from studyhall.core.workbench.kinds import JOB_KINDS, SPECS, check_input, headline, normalize_input

Spawn = Callable[[str, JobKind, dict[str, Any]], Job]  # (chat_id, kind, input) -> the job
Capacity = Callable[[str], str | None]  # chat_id -> why no job may start now, or None


def acknowledgement(job: Job) -> dict[str, Any]:
    noun = SPECS[job.kind].noun
    return {
        "status": "started",
        "job_id": job.id,
        "kind": job.kind,
        "note": f"Started in the background ({noun}). Its result will arrive later as "
                "a note in this conversation, and the learner will see it as a card. Keep "
                "teaching now; do not wait for it or start it again.",
    }


def _tool(kind: JobKind, spawn: Spawn, capacity: Capacity | None) -> Tool:
    spec = SPECS[kind]

    def check(args: dict[str, Any], ctx: ToolContext) -> list[str]:
        problems = check_input(kind, args)
        full = capacity(ctx.chat_id) if capacity is not None else None
        if full:
            problems.append(full)
        return problems

    def run(args: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        # Checked again here: several calls of one step all pass ``check`` before any runs.
        full = capacity(ctx.chat_id) if capacity is not None else None
        if full:
            raise ValueError(full)  # the loop turns it into an error result for the model
        job = spawn(ctx.chat_id, kind, normalize_input(kind, args))
        card = {"job_id": job.id, "kind": kind, "status": job.status,
                "title": headline(kind, job.input)}
        return ToolOutcome(output=acknowledgement(job), data=(DataPart(name="job", data=card),))

    return Tool(
        spec=ToolSpec(name=kind, description=spec.description, parameters=spec.schema()),
        kind="server", check=check, run=run,
    )


def job_tools(spawn: Spawn, capacity: Capacity | None = None) -> tuple[Tool, ...]:
    """One tool per job kind, bound to the runtime's ``spawn``."""
    return tuple(_tool(kind, spawn, capacity) for kind in JOB_KINDS)
