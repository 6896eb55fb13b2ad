"""The teacher's job tools: checked arguments, an acknowledgement at once, a capacity limit."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from studyhall.core.agents.job_tools import job_tools
from studyhall.core.agents.tools import ToolContext
from studyhall.core.contracts.jobs import Job

AT = datetime(2025, 1, 1, 9, 0, tzinfo=UTC)
CTX = ToolContext(chat_id="chat_1", messages=())


def test_each_job_kind_is_a_server_tool_that_spawns_and_acknowledges() -> None:
    spawned: list[tuple[str, str, dict[str, Any]]] = []

    def spawn(chat_id: str, kind: str, job_input: dict[str, Any]) -> Job:
        spawned.append((chat_id, kind, job_input))
        return Job(id="job_7", chat_id=chat_id, kind=kind, status="running", input=job_input,
                   created_at=AT, updated_at=AT)

    tools = {t.name: t for t in job_tools(spawn)}
    assert set(tools) == {"research", "demo", "visual", "notes", "flashcards", "study_plan",
                          "study_guide", "mind_map"}
    assert all(t.kind == "server" for t in tools.values())
    demo = tools["demo"]
    args = {"concept": "heaps", "brief": "push numbers"}
    assert demo.check(args, CTX) == []
    assert demo.run is not None
    outcome = demo.run(args, CTX)
    assert spawned == [("chat_1", "demo", {"concept": "heaps", "brief": "push numbers"})]
    assert outcome.output["status"] == "started" and outcome.output["job_id"] == "job_7"
    assert "do not wait" in outcome.output["note"]
    (card,) = outcome.data
    assert card.name == "job" and card.data == {"job_id": "job_7", "kind": "demo",
                                                "status": "running", "title": "Demo: heaps"}
    assert not outcome.ends_agent


def test_too_many_running_jobs_is_a_problem_the_teacher_reads() -> None:
    def spawn(chat_id: str, kind: str, job_input: dict[str, Any]) -> Job:
        raise AssertionError("must not spawn")

    tools = {t.name: t for t in job_tools(spawn, lambda chat_id: "4 helpers are already working")}
    problems = tools["research"].check({"question": "Why?"}, CTX)
    assert problems == ["4 helpers are already working"]
    assert tools["research"].check({}, CTX)[0].startswith("question is missing")
