"""A learner's walk through the real app with every role on a real model server (issue 31):
a session (prober → plan → teaching → a question answered → extraction), Ask over imported
passages, an artifact and Quiz me — and the mechanics it is held to, counted in a ``Tally``
that the ``real_model`` tests assert on and ``bench/real_model.py`` prints.

Mechanics, not content: a turn ends with text or a question (never an error or a traceback);
every ledger reads back through its store with nothing skipped; Ask cites only passages it
listed; ``/api/health`` answers while a turn runs.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from studyhall.core.contracts.models import ModelEvent, ModelRequest, StreamedText, ToolCallEvent
from studyhall.core.ports.models import ChatModel
from studyhall.server.runtime.runtime import Runtime
from studyhall.server.services import Services

from tests.support.artifact_graph import seed_heap_graph
from tests.support.course import vtt
from tests.support.jobs import settle
from tests.support.runs import finished
from tests.support.session_api import Api, Sse, parse_sse
from tests.support.shelf import make_shelf

MESSAGES = ("I want to learn breadth-first search.", "I know what a queue is.",
            "Quiz me on BFS, please.")
QUESTIONS = ("What does the sweep phase free?", "Who won the 1998 world cup?")
ASKED = frozenset({"quiz", "ask_user_question", "plan_init", "probe_done"})


@dataclass
class Tally:
    turns: int = 0
    clean: int = 0
    questions: int = 0  # turns where a structured question reached the learner
    first_byte_s: list[float] = field(default_factory=list)
    extraction: list[str] = field(default_factory=list)  # "wrote", "nothing", "failed cleanly"
    asks: int = 0
    asks_cited_only_listed: int = 0
    health_worst_s: float = 0.0
    problems: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)  # the questions the walk answered

    def lines(self) -> list[str]:
        median = statistics.median(self.first_byte_s) if self.first_byte_s else float("nan")
        return [
            f"turns that end cleanly: {self.clean}/{self.turns}",
            f"turns where a structured question reached the learner: {self.questions}/{self.turns}",
            f"median time to first byte: {median:.1f} s over {len(self.first_byte_s)} model calls",
            "extraction runs: " + ", ".join(self.extraction),
            f"Ask answers citing only listed passages: {self.asks_cited_only_listed}/{self.asks}",
            f"slowest /api/health during a turn: {self.health_worst_s * 1000:.0f} ms",
            *self.pending,
        ]


class TimedModel:
    """The app's chat model, timing each call's first text or tool call (the learner's wait)."""

    def __init__(self, inner: ChatModel, tally: Tally) -> None:
        self._inner = inner
        self._tally = tally

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        started, first = time.monotonic(), True
        async for event in self._inner.stream(request):
            if first and isinstance(event, (StreamedText, ToolCallEvent)):
                self._tally.first_byte_s.append(time.monotonic() - started)
                first = False
            yield event


def timed(services: Services, tally: Tally) -> Services:
    return replace(services, chat_model=TimedModel(services.chat_model, tally))


async def _while_healthy(api: Api, tally: Tally, work: Any) -> Any:
    """Run ``work`` while asking /api/health every half second; the slowest answer is kept."""
    task = asyncio.ensure_future(work)
    while not task.done():
        started = time.monotonic()
        r = await api.http.get("/api/health")
        if r.status_code != 200:
            tally.problems.append(f"/api/health answered {r.status_code} during a turn")
        tally.health_worst_s = max(tally.health_worst_s, time.monotonic() - started)
        await asyncio.wait([task], timeout=0.5)
    return task.result()


def _judge(turn: Sse, tally: Tally, what: str) -> None:
    tally.turns += 1
    if not turn.events:  # refused before any stream: say how, or the failure cannot be read
        tally.problems.append(f"{what}: refused with {turn.status}: {str(turn.body)[:200]}")
        return
    names = turn.names()
    calls = [c.get("name") for c in turn.of("tool-call")]
    if any(name in ASKED for name in calls):
        tally.questions += 1
    ended = names[-1] if names else "nothing"
    texty = bool(turn.text().strip()) or bool(calls)
    if "Traceback" in turn.text() or any("Traceback" in str(e) for e in turn.of("error")):
        tally.problems.append(f"{what}: a traceback reached the learner")
    if ended == "finish" and texty:
        tally.clean += 1
    else:
        error = turn.of("error")[-1].get("message", "") if turn.of("error") else ended
        tally.problems.append(f"{what}: ended with {ended}: {str(error)[:160]}")


def _answer_for(pending: dict[str, Any]) -> dict[str, Any]:
    presented = pending.get("presented") or {}
    if isinstance(presented.get("questions"), list):  # each question as its kind asks
        return {"responses": [_response_to(q) for q in presented["questions"]]}
    if pending.get("name") == "plan_init" or "mermaid" in presented:
        return {"approve": True}
    if presented.get("options"):
        return {"option": 0}
    return {"text": "Yes, go on."}


def _response_to(question: dict[str, Any]) -> dict[str, Any]:
    if question.get("choices"):
        return {"choices": [0]}
    if question.get("input") == "number":
        return {"number": 1}
    return {"text": "A queue of the nodes to visit next."}


async def session_walk(api: Api, runtime: Runtime, tally: Tally) -> str:
    # Three model steps a turn at most: the walk stays within minutes on a busy 2-core box.
    runtime.services.settings_store.update(lambda s: s.model_copy(update={"max_steps_per_turn": 3}))
    chat_id = await api.new_chat("breadth-first search")
    for n, text in enumerate(MESSAGES, 1):
        turn = await _while_healthy(api, tally, api.say(chat_id, text))
        _judge(turn, tally, f"message {n}")
        for pending in (await api.chat(chat_id)).get("pending", [])[:1]:
            tally.pending.append(f"answer after message {n}: {pending.get('name')} "
                                 f"{str(pending.get('presented'))[:200]}")
            answered = await _while_healthy(
                api, tally, api.answer(chat_id, pending["tool_call_id"], _answer_for(pending)))
            _judge(answered, tally, f"answer after message {n}")
    r = await api.http.post(f"/api/chats/{chat_id}/extract")
    run = await finished(runtime.library.extraction_run(r.json()["run_id"]))
    await settle(runtime)
    nodes = len(runtime.services.graph_store.propositions().records)
    tally.extraction.append("wrote" if run.status == "done" and nodes else
                            "nothing" if run.status == "done" else
                            "failed cleanly" if run.error else "failed without a reason")
    return chat_id


def course(root: Path) -> Path:
    folder = root / "course"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "gc.vtt").write_text(vtt([
        (0, 6, "Mark and sweep marks every object reachable from the roots."),
        (7, 13, "The sweep phase frees every unmarked object."),
        (14, 20, "A generational collector scans young objects more often than old ones."),
        (21, 27, "Reference counting frees an object the moment its last reference goes."),
        (28, 34, "Cycles of references defeat plain reference counting."),
        (35, 41, "A copying collector moves live objects into a fresh space."),
    ]))
    return folder


async def ask_walk(api: Api, runtime: Runtime, tally: Tally, root: Path) -> None:
    await runtime.library.index_material(str(course(root)))
    for question in QUESTIONS:
        r = await _while_healthy(api, tally, api.http.post("/api/ask", json={"question": question}))
        events = parse_sse(r.text)
        tally.asks += 1
        if not events or events[-1][0] != "finish":
            tally.problems.append(f"Ask {question!r} ended with {events[-1] if events else None}")
            continue
        listed = {p.get("n") for p in events[0][1].get("passages", [])}
        cited = set(events[-1][1].get("cited", []))
        if cited <= listed:
            tally.asks_cited_only_listed += 1
        else:
            tally.problems.append(f"Ask cited {sorted(cited - listed)} it never listed")


async def artifact_walk(api: Api, runtime: Runtime, tally: Tally) -> None:
    seed_heap_graph(runtime.services.graph_store)
    r = await api.http.post("/api/artifacts", json={
        "kinds": ["notes"], "scope": {"type": "topic", "id": "n_heap"}})
    if r.status_code != 202:
        tally.problems.append(f"artifact refused: {r.status_code} {r.text[:160]}")
        return
    await settle(runtime)
    for started in r.json()["jobs"]:
        job = runtime.services.job_store.get(started["job_id"])
        if job is None or job.status not in ("done", "error"):
            tally.problems.append(f"artifact job ended {job.status if job else 'missing'}")
        elif job.status == "error" and not job.error:
            tally.problems.append("artifact job failed without a reason")


async def quiz_me_walk(api: Api, runtime: Runtime, tally: Tally, root: Path) -> None:
    await runtime.library.index_material(str(make_shelf(root / "Course")))  # a long lecture
    sources = (await api.http.get("/api/sources")).json()
    lecture = next((s for s in sources if s["path"].endswith("Respiration.vtt")), None)
    if lecture is None:
        tally.problems.append("the lecture was not imported")
        return
    r = await api.http.post(f"/api/sources/{lecture['id']}/quiz", json={"t": 754})
    if r.status_code != 200:
        tally.problems.append(f"Quiz me answered {r.status_code}: {r.text[:160]}")
        return
    quiz = r.json()
    picks = {"choices": [[0] for _ in quiz["questions"]]}
    out = await api.http.post(f"/api/sources/{lecture['id']}/quiz/{quiz['quiz_id']}/answers",
                              json=picks)
    if out.status_code != 200:
        tally.problems.append(f"Quiz me answers refused: {out.status_code} {out.text[:160]}")


def ledger_problems(services: Services) -> list[str]:
    """Every ledger read back through its store: a skipped line is something invalid written."""
    reads = {
        "propositions": services.graph_store.propositions(),
        "edges": services.graph_store.edges(),
        "quiz events": services.graph_store.quiz_events(),
        "observations": services.graph_store.observations(),
        "checkpoints": services.graph_store.checkpoints(),
        "quiz answers": services.learner_store.quiz_answers(),
        "grades": services.learner_store.grades(),
        "flashcards": services.learner_store.flashcards(),
        "artifacts": services.artifact_store.kept(),
    }
    return [f"{name}: {read.skipped} bad line(s): {read.skipped_reasons[:2]}"
            for name, read in reads.items() if read.skipped]
