"""A session's own topic is the session, not its title: two sessions with one title get two
topics, a renamed session keeps its topic, and a topic made when topics were keyed by their
text (the landed data) stays the session's topic, its findings with it."""

from __future__ import annotations

from studyhall.adapters.fakes import FixedClock, SequentialIds
from studyhall.adapters.store import JsonlGraphStore
from studyhall.core.agents.auditor import ModelAuditor
from studyhall.core.agents.extractor import ModelExtractor
from studyhall.core.library.extraction.batching import Batch
from studyhall.core.library.extraction.coverage import chat_views
from studyhall.core.library.extraction.finding_placement import Session, standing_session
from studyhall.core.library.extraction.merge_base import SharedGraph
from studyhall.core.library.extraction.merger import commit_merge, node_id_for, plan_merge
from studyhall.core.library.extraction.pipeline import ExtractionPipeline
from studyhall.core.library.extraction.source_kinds import chat_transcript
from studyhall.core.library.graph.session_topic import session_topic_id
from studyhall.core.library.graph.snapshot import graph_snapshot

from tests.support.chat_script import scripted
from tests.support.library_session import T0, keep_all, session

TITLE = "Graph theory"
WHALES = {"propositions": [{"key": "w", "text": "Whales sing underwater.", "evidence": [
    {"message_id": "m_2", "quote": "A derivative measures"}]}], "edges": []}
BREAD = {"propositions": [{"key": "b", "text": "Bread rises because yeast makes gas.",
                           "evidence": [{"message_id": "m_2", "quote": "A derivative measures"}]}],
         "edges": []}


def pipeline(store) -> ExtractionPipeline:
    return ExtractionPipeline(store=store, base=SharedGraph(store, lambda: graph_snapshot(store)),
                              clock=FixedClock(T0), ids=SequentialIds())


def kind(extraction, key: str, chat: Session):
    model = scripted(extractor=[extraction], auditor=[keep_all(key)])
    return chat_transcript(ModelExtractor(model, "extract"), ModelAuditor(model, "audit"),
                           session=chat)


def batch(chat_id: str) -> Batch:
    return Batch(chat_id, tuple(chat_views(chat_id, session())))


def under(store, topic: str) -> list[str]:
    snap = graph_snapshot(store)
    text = {n.id: n.text for n in snap.nodes}
    return sorted(text[e.source] for e in snap.edges if e.target == topic)


async def test_two_sessions_with_one_title_get_two_topics(tmp_path):
    store = JsonlGraphStore(tmp_path)
    run = pipeline(store)
    await run.run_batch(batch("chat_a"), kind(WHALES, "w", Session("chat_a", TITLE)), run_id="r1")
    await run.run_batch(batch("chat_b"), kind(BREAD, "b", Session("chat_b", TITLE)), run_id="r2")
    topics = [n for n in graph_snapshot(store).nodes if n.text == TITLE]
    assert sorted(n.id for n in topics) == sorted(
        [session_topic_id("chat_a"), session_topic_id("chat_b")])
    assert under(store, session_topic_id("chat_a")) == ["Whales sing underwater."]
    assert under(store, session_topic_id("chat_b")) == ["Bread rises because yeast makes gas."]


async def test_a_renamed_session_keeps_its_topic_and_its_first_name(tmp_path):
    store = JsonlGraphStore(tmp_path)
    run = pipeline(store)
    await run.run_batch(batch("chat_a"), kind(WHALES, "w", Session("chat_a", TITLE)), run_id="r1")
    renamed = standing_session(Session("chat_a", "Trees and paths"), graph_snapshot(store).node)
    assert renamed.title == TITLE and renamed.topic_id == session_topic_id("chat_a")
    await run.run_batch(batch("chat_a"), kind(BREAD, "b", renamed), run_id="r2")
    assert [n.text for n in graph_snapshot(store).nodes].count(TITLE) == 1
    assert under(store, session_topic_id("chat_a")) == [
        "Bread rises because yeast makes gas.", "Whales sing underwater."]


async def test_a_topic_keyed_by_its_text_in_a_landed_data_folder_stays_the_sessions(tmp_path):
    folder = tmp_path / "graph"
    landed = JsonlGraphStore(folder)
    run = pipeline(landed)
    judged = await run.judge(batch("chat_a"), kind(WHALES, "w", Session("chat_a", TITLE)))
    # The landed merge: no node ids given, so the topic's id came from its text.
    commit_merge(plan_merge(batch("chat_a"), judged.findings, judged.audit,
                            graph_snapshot(landed).known(), run_id="r1", started_at=T0, at=T0),
                 landed)
    legacy = node_id_for(TITLE)
    assert under(landed, legacy) == ["Whales sing underwater."]

    store = JsonlGraphStore(folder)  # the app opens the folder again, on the new code
    chat_a = standing_session(Session("chat_a", "Renamed", ("Renamed", TITLE)),
                              graph_snapshot(store).node)
    assert (chat_a.title, chat_a.topic_id) == (TITLE, legacy)
    await pipeline(store).run_batch(batch("chat_a"), kind(BREAD, "b", chat_a), run_id="r2")
    assert under(store, legacy) == [
        "Bread rises because yeast makes gas.", "Whales sing underwater."]
    assert [n.text for n in graph_snapshot(store).nodes].count(TITLE) == 1
    # Another session of that title was never among the old topic's sources: its own topic.
    other = standing_session(Session("chat_b", TITLE, (TITLE,)), graph_snapshot(store).node)
    assert other.topic_id == session_topic_id("chat_b")


async def test_a_model_finding_that_takes_the_topics_key_is_not_made_the_session_topic(tmp_path):
    store = JsonlGraphStore(tmp_path)
    hostile = {"propositions": [{"key": "session-topic", "text": "Whales sing underwater.",
                                 "evidence": [{"message_id": "m_2",
                                               "quote": "A derivative measures"}]}], "edges": []}
    await pipeline(store).run_batch(
        batch("chat_a"), kind(hostile, "session-topic", Session("chat_a", TITLE)), run_id="r1")
    snap = graph_snapshot(store)
    assert snap.node(session_topic_id("chat_a")) is None
    assert snap.node(node_id_for("Whales sing underwater.")) is not None
