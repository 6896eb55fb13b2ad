"""The workbench's runtime objects of an app, built from its services on first use: the job
runner, its work (sub-agents, grounding, the sandbox), the teacher's job tools registered with
the turn runner, the after-turn hook, and start-up recovery / shutdown."""

from __future__ import annotations

from studyhall.core.agents.grounding import Grounding
from studyhall.core.agents.job_tools import job_tools
from studyhall.server.runtime.classroom import turn_runner
from studyhall.server.runtime.grounding import gather_grounding
from studyhall.server.runtime.job_work import JobWork
from studyhall.server.runtime.jobs import JobRunner
from studyhall.server.runtime.prompts import load_prompt
from studyhall.server.services import Services

_KEY = "jobs"


def job_runner(services: Services) -> JobRunner:
    runner = services.extras.get(_KEY)
    if isinstance(runner, JobRunner):
        return runner
    services.require("the job runner", "job_store", "chat_store", "chat_model", "clock", "ids")
    assert services.job_store and services.chat_store and services.chat_model
    assert services.clock and services.ids
    turns = turn_runner(services)

    async def grounding(chat_id: str, query: str) -> Grounding:
        return await gather_grounding(services, chat_id, query)

    runner = JobRunner(
        job_store=services.job_store,
        chat_store=services.chat_store,
        turns=turns,
        model=services.chat_model,
        work=JobWork(sandbox=services.sandbox, prompt=load_prompt, grounding=grounding),
        clock=services.clock,
        ids=services.ids,
    )
    services.extras[_KEY] = runner
    turns.add_tools("teacher", job_tools(runner.spawn, runner.capacity))
    turns.hooks.append(runner.on_turn_end)
    services.on_startup.append(runner.recover)
    services.on_shutdown.append(runner.shutdown)
    return runner
