"""What a job does, per kind: gather the learner's grounding, run the sub-agent(s), return the
result. Sub-agents verify before they answer (``core.agents.builder``); the study artifacts fan
out to their writers in parallel and are assembled into one result.

Every model call of a job goes through ``MeteredModel``, which reports usage as it arrives,
so the activity feed shows a running job's tokens and cost live.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from studyhall.core.agents import demo_builder, researcher, visual_maker
from studyhall.core.agents.grounding import Grounding
from studyhall.core.agents.writers import PROMPTS, write_artifact
from studyhall.core.contracts.chat import Usage
from studyhall.core.contracts.jobs import Job
from studyhall.core.contracts.models import ModelEvent, ModelRequest, UsageEvent
from studyhall.core.errors import JobFailed, StudyhallError
from studyhall.core.ports.models import ChatModel
from studyhall.core.ports.sandbox import Sandbox
from studyhall.core.workbench.fanout import artifact_set, assemble, writer_brief

log = logging.getLogger("studyhall.jobs")

GroundingFn = Callable[[str, str], Awaitable[Grounding]]  # (chat_id, query) -> grounding
# A scope job's grounding: the scope (as stored in the job's input) resolved now.
ScopeGroundingFn = Callable[[Mapping[str, Any]], Awaitable[Grounding]]


@dataclass(frozen=True)
class WorkDone:
    result: dict[str, Any]
    attempts: int


class MeteredModel:
    """A ``ChatModel`` that reports each call's usage to ``on_usage`` as it passes by."""

    def __init__(self, inner: ChatModel, on_usage: Callable[[Usage], None]) -> None:
        self._inner = inner
        self._on_usage = on_usage

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        async for event in self._inner.stream(request):
            if isinstance(event, UsageEvent):
                self._on_usage(event.usage)
            yield event


class JobWork:
    def __init__(self, *, sandbox: Sandbox, prompt: Callable[[str], str],
                 grounding: GroundingFn, scope_grounding: ScopeGroundingFn) -> None:
        self._sandbox = sandbox
        self._prompt = prompt
        self._grounding = grounding
        self._scope_grounding = scope_grounding

    async def __call__(self, job: Job, model: ChatModel) -> WorkDone:
        if job.kind == "research":
            g = await self._grounding(job.chat_id or "", str(job.input.get("question", "")))
            built = await researcher.research(model, self._prompt(researcher.PROMPT_NAME),
                                              job.input, g)
        elif job.kind == "demo":
            built = await demo_builder.build_demo(
                model, self._sandbox, self._prompt(demo_builder.PROMPT_NAME), job.input)
        elif job.kind == "visual":
            built = await visual_maker.make_visual(
                model, self._sandbox, self._prompt(visual_maker.PROMPT_NAME), job.input)
        else:
            return await self._artifacts(job, model)
        return WorkDone(built.value, built.attempts)

    async def _artifacts(self, job: Job, model: ChatModel) -> WorkDone:
        order = artifact_set(job.kind, job.input)
        subject = str(job.input.get("topic") or job.input.get("goal") or "")
        if job.chat_id is None:  # made from a scope: its material, not a session's
            grounding = await self._scope_grounding(job.input.get("scope") or {})
        else:
            grounding = await self._grounding(job.chat_id, subject)
        outcomes = await asyncio.gather(
            *(write_artifact(model, self._prompt(PROMPTS[kind]), kind,
                             writer_brief(kind, job.input), grounding) for kind in order),
            return_exceptions=True,
        )
        written: dict[str, dict[str, Any]] = {}
        failed: dict[str, str] = {}
        attempts = 0
        for kind, outcome in zip(order, outcomes):
            if isinstance(outcome, asyncio.CancelledError):
                raise outcome
            if isinstance(outcome, JobFailed):
                failed[kind], attempts = str(outcome), max(attempts, outcome.attempts)
            elif isinstance(outcome, StudyhallError):
                failed[kind] = str(outcome)
            elif isinstance(outcome, BaseException):
                log.error("[job %s] the %s writer failed", job.id, kind, exc_info=outcome)
                failed[kind] = "The writer failed unexpectedly (see the log)."
            else:
                written[kind] = outcome.value
                attempts = max(attempts, outcome.attempts)
        assembly = assemble(order, written, failed)
        if not assembly.ok:
            reasons = " | ".join(f"{k}: {why}" for k, why in assembly.failed.items())
            raise JobFailed(f"Nothing could be written. {reasons}", attempts=max(attempts, 1))
        return WorkDone(assembly.result, max(attempts, 1))
