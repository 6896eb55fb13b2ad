"""The extraction scheduler: threshold trigger, single-flight, true abort, failure and convergence."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from studyhall.adapters.fakes import (
    FixedClock,
    InMemoryChatStore,
    InMemoryGraphStore,
    InMemorySettingsStore,
    SequentialIds,
)
from studyhall.adapters.store import JsonChatStore, JsonlGraphStore
from studyhall.core.contracts.chat import ChatRecord
from studyhall.core.contracts.models import ModelEvent, ModelRequest
from studyhall.core.contracts.settings import Settings
from studyhall.core.library.extraction.nearest import LexicalNeighbours
from studyhall.core.library.graph.snapshot import graph_snapshot, read_ledgers
from studyhall.server.runtime.library.extraction import ExtractionScheduler
from studyhall.server.runtime.library.graph_reader import GraphReader
from studyhall.server.runtime.reactions import Reactions
from studyhall.server.runtime.supervisor import Supervisor

from tests.support.chat_model import FunctionChatModel
from tests.support.chat_script import Replies, scripted
from tests.support.embedder import UnloadableEmbedder
from tests.support.library_session import (
    CHAT,
    T0,
    at,
    good_extraction,
    keep_all,
    session,
    text,
)
from tests.support.runs import finished

# The untitled chat's own topic: its findings are near nothing in an empty graph, so they hang
# under it (issue 28 item 5), one more node and one more edge than before.
SESSION_TOPIC = "Session of 1 Mar 2025"


def make(model, store_kind: str = "memory", tmp_path=None, chunk_tokens: int = 2000,
         no_model=lambda: None):
    if store_kind == "memory":
        chats, graph = InMemoryChatStore(), InMemoryGraphStore()
    else:
        chats, graph = JsonChatStore(tmp_path / "chats"), JsonlGraphStore(tmp_path / "graph")
    chats.create(ChatRecord(id=CHAT, created_at=T0, updated_at=T0, messages=tuple(session())))
    supervisor = Supervisor()
    scheduler = ExtractionScheduler(
        chat_store=chats, graph_store=graph,
        settings_store=InMemorySettingsStore(Settings(chunk_tokens=chunk_tokens)),
        chat_model=model, embedder=UnloadableEmbedder(), by_meaning=LexicalNeighbours(()),
        clock=FixedClock(T0 + timedelta(hours=1)), ids=SequentialIds(),
        prompt=lambda name: f"prompt {name}", supervisor=supervisor,
        reader=GraphReader(graph), reactions=Reactions(supervisor), no_model=no_model)
    return scheduler, chats, graph


class Outcome:
    def __init__(self, chat_id: str) -> None:
        self.chat_id = chat_id


def good_model(times: int = 1) -> FunctionChatModel:
    return scripted(extractor=[good_extraction()] * times,
                        auditor=[keep_all("p1", "p2")] * times)


@pytest.mark.parametrize("store_kind", ["memory", "file"])
async def test_explicit_run_merges_the_chat_and_a_rerun_converges(store_kind, tmp_path):
    scheduler, _, graph = make(good_model(), store_kind, tmp_path)
    run = await finished(scheduler.get(scheduler.start(CHAT).id))
    assert (run.status, run.batches_done, run.propositions, run.edges) == ("done", 1, 3, 2)
    nodes = graph_snapshot(graph).nodes
    assert [n.state for n in nodes] == ["solid", "shaky", "not-tried"]
    assert nodes[-1].text == SESSION_TOPIC
    before = read_ledgers(graph)
    again = await finished(scheduler.get(scheduler.start(CHAT).id))
    assert (again.status, again.batches_total) == ("done", 0)
    assert read_ledgers(graph) == before  # nothing uncovered: nothing written
    assert scheduler.uncovered_tokens(CHAT) == 0


async def test_trigger_fires_only_at_the_chunk_tokens_threshold():
    scheduler, chats, graph = make(good_model(), chunk_tokens=200)
    total = scheduler.uncovered_tokens(CHAT)
    assert total < 200
    scheduler.on_turn_end(Outcome(CHAT))
    assert scheduler.runs() == []
    # One more message brings the uncovered total exactly to the threshold.
    filler = text("m_5", "user", "x" * (4 * (200 - total - 1)), 5)
    chats.save_messages(CHAT, [filler], at(5))
    assert scheduler.uncovered_tokens(CHAT) == 200
    scheduler.on_turn_end(Outcome(CHAT))
    [run] = scheduler.runs()
    assert run.reason == "trigger"
    await finished(scheduler.get(run.id))
    assert run.status == "done" and len(graph_snapshot(graph).nodes) == 3  # + session topic
    scheduler.on_turn_end(Outcome(CHAT))  # all covered now: no new run
    assert len(scheduler.runs()) == 1


NO_KEY = "Add a key to put this session into your graph."


async def test_with_no_key_a_run_fails_at_once_in_words_and_calls_no_model():
    model = good_model()
    scheduler, _, graph = make(model, no_model=lambda: NO_KEY)
    run = scheduler.start(CHAT)
    await finished(scheduler.get(run.id))
    assert run.status == "error" and run.error == NO_KEY
    assert model.requests == [] and graph_snapshot(graph).nodes == ()
    assert scheduler.no_model() == NO_KEY  # what the session's dock shows instead


async def test_with_no_key_a_turn_past_the_threshold_starts_no_run():
    scheduler, chats, _ = make(good_model(), chunk_tokens=200, no_model=lambda: NO_KEY)
    chats.save_messages(CHAT, [text("m_5", "user", "x" * 4000, 5)], at(5))
    assert scheduler.uncovered_tokens(CHAT) >= 200
    scheduler.on_turn_end(Outcome(CHAT))
    assert scheduler.runs() == []  # nothing to fail: the dock already says what to do


async def test_a_second_start_joins_the_run_in_flight():
    gate = asyncio.Event()

    replies = Replies(extractor=[good_extraction()], auditor=[keep_all("p1", "p2")])

    async def slow(request: ModelRequest) -> list[ModelEvent]:
        await gate.wait()
        return replies(request)

    scheduler, _, _ = make(FunctionChatModel(slow))
    first = scheduler.start(CHAT)
    assert scheduler.start(CHAT) is first
    scheduler.on_turn_end(Outcome(CHAT))
    assert len(scheduler.runs()) == 1
    gate.set()
    assert (await finished(scheduler.get(first.id))).status == "done"


@pytest.mark.parametrize("stage", ["extractor", "auditor"])
async def test_abort_cancels_the_model_call_and_writes_nothing(stage):
    entered, cancelled = asyncio.Event(), asyncio.Event()

    replies = Replies(extractor=[good_extraction()], auditor=[keep_all("p1", "p2")])

    async def hangs(request: ModelRequest) -> list[ModelEvent]:
        if request.role == stage:
            entered.set()
            try:
                await asyncio.Event().wait()  # a model call that never answers
            except asyncio.CancelledError:
                cancelled.set()
                raise
        return replies(request)

    scheduler, _, graph = make(FunctionChatModel(hangs))
    run = scheduler.start(CHAT)
    await asyncio.wait_for(entered.wait(), 5)
    assert run.stage == ("extracting" if stage == "extractor" else "auditing")
    assert scheduler.abort(run.id) is True
    await finished(scheduler.get(run.id))
    assert cancelled.is_set()  # the call itself was cancelled, not left running
    assert run.status == "aborted" and "nothing" in (run.error or "")
    assert read_ledgers(graph) == read_ledgers(InMemoryGraphStore())
    assert graph.coverage(CHAT).records == ()
    assert scheduler.abort(run.id) is False  # already finished
    # The next run starts fresh and converges.
    scheduler._model = good_model()  # type: ignore[attr-defined]
    done = await finished(scheduler.get(scheduler.start(CHAT).id))
    assert done.status == "done" and len(graph_snapshot(graph).nodes) == 3  # + session topic


async def test_abort_before_the_task_ever_ran_is_settled():
    scheduler, _, _ = make(good_model())
    run = scheduler.start(CHAT)
    assert scheduler.abort(run.id)
    await finished(scheduler.get(run.id))
    assert run.status == "aborted" and run.finished_at is not None
    assert scheduler.start(CHAT) is not run  # the source is free again


async def test_malformed_output_fails_the_run_cleanly_and_the_next_run_converges():
    model = scripted(extractor=["{broken", "still [broken", good_extraction()],
                         auditor=[keep_all("p1", "p2")])
    scheduler, _, graph = make(model)
    failed = await finished(scheduler.get(scheduler.start(CHAT).id))
    assert failed.status == "error"
    assert "extractor model answered 2 times without valid structured output" in failed.error
    assert read_ledgers(graph) == read_ledgers(InMemoryGraphStore())
    ok = await finished(scheduler.get(scheduler.start(CHAT).id))
    assert ok.status == "done" and len(graph_snapshot(graph).nodes) == 3  # + session topic


async def test_batches_merge_separately_with_progress():
    model = scripted(extractor=[{"propositions": [], "edges": []}] * 4)
    scheduler, _, graph = make(model, chunk_tokens=100)
    assert sum(v.tokens for v in scheduler.chat_views(CHAT)) > 100
    run = await finished(scheduler.get(scheduler.start(CHAT).id))
    assert run.batches_total >= 2 and run.batches_done == run.batches_total
    assert model.calls("extractor") == run.batches_total
    assert [c.id for c in graph.checkpoints().records] == [
        f"{run.id}.b{n}" for n in range(1, run.batches_total + 1)]
    d = run.to_dict()
    assert d["progress"] == {"done": run.batches_total, "total": run.batches_total}
    assert scheduler.uncovered_tokens(CHAT) == 0


async def test_unknown_chat_is_refused_before_a_run_exists():
    from studyhall.core.errors import NotFound

    scheduler, _, _ = make(good_model())
    with pytest.raises(NotFound):
        scheduler.start("chat_nope")
    assert scheduler.runs() == []


async def test_a_title_that_arrives_later_makes_no_second_session_topic():
    whales = {"propositions": [{"key": "w", "text": "Whales sing underwater.", "evidence": [
        {"message_id": "m_5", "quote": "whales sing"}]}], "edges": []}
    model = scripted(extractor=[good_extraction(), whales],
                     auditor=[keep_all("p1", "p2"), keep_all("w")])
    scheduler, chats, graph = make(model)
    assert (await finished(scheduler.get(scheduler.start(CHAT).id))).status == "done"
    chats.set_title(CHAT, "Derivatives", at(5))  # the labeler answered after the first run
    chats.save_messages(CHAT, [text("m_5", "user", "I read that whales sing.", 5)], at(5))
    assert (await finished(scheduler.get(scheduler.start(CHAT).id))).status == "done"
    snap = graph_snapshot(graph)
    by_text = {n.text: n.id for n in snap.nodes}
    assert "Derivatives" not in by_text  # the session's topic kept its first name
    tied = {e.source for e in snap.edges if e.target == by_text[SESSION_TOPIC]}
    assert tied == {by_text["Whales sing underwater."],
                    by_text["A derivative is the instantaneous rate of change of a function."]}
