"""Stored review questions over HTTP: with a model, one question per node is written in the
background the first time the queue shows it, checked against the node's evidence, stored and
served from then on (no second call); a question quoting what the node does not say is dropped;
with no usable model nothing is called and the model-free prompt is served."""

from __future__ import annotations

import dataclasses
import json
from datetime import UTC, datetime

import pytest
from studyhall.adapters.fakes import FixedClock
from studyhall.core.contracts.settings import RoleModel
from studyhall.server.app import build_services
from studyhall.server.config import load_config

from tests.support.chat_script import scripted
from tests.support.graph_events import cp, prop, quiz
from tests.support.session_api import PORT, scripted_app

TREE = "A tree is a connected graph without cycles."
NOON = datetime(2025, 3, 3, 12, 0, tzinfo=UTC)
GOOD = {"question": "What kind of graph is a tree?",
        "answer": "A connected graph that has no cycles.",
        "evidence_quote": "a  connected graph\nwithout cycles"}  # whitespace differs: still found


def services_with(model, role_model: str):
    services = build_services(load_config(port=PORT))
    services.graph_store.append_propositions([prop("tree", text=TREE)])
    services.graph_store.append_quiz_events([quiz("tree", "correct", 1)])
    services.graph_store.append_checkpoint(cp("r1"))
    settings = services.settings_store.load()
    services.settings_store.save(settings.model_copy(update={"models": {
        **settings.models, "answerer": RoleModel(model=role_model)}}))
    return dataclasses.replace(services, clock=FixedClock(NOON), chat_model=model)


async def _card(api, runtime) -> dict:
    r = await api.http.get("/api/review")
    assert r.status_code == 200, r.text
    await runtime.supervisor.idle()  # the background writer, if one started
    (card,) = r.json()["due"]
    return card


async def test_a_good_question_is_written_once_stored_and_served(tmp_path) -> None:
    model = scripted(answerer=[GOOD])
    services = services_with(model, "ollama/llama3")  # a local model: no key needed
    async with scripted_app(None, services=services) as (api, runtime):
        first = await _card(api, runtime)
        assert first["kind"] == "cloze"  # served model-free while the question is written
        assert model.calls("answerer") == 1
        request = model.of("answerer")[0]
        assert request.response_schema is not None and TREE in json.dumps(request.messages)

        second = await _card(api, runtime)
        assert second["kind"] == "question" and second["prompt"] == GOOD["question"]
        assert second["answer"] == GOOD["answer"]
        assert second["evidence"] == GOOD["evidence_quote"]
        third = await _card(api, runtime)
        assert third["kind"] == "question"
        assert model.calls("answerer") == 1  # stored once: no further call
        assert [q.node_id for q in services.learner_store.questions().records] == ["tree"]
        only = await api.http.get("/api/review?node=tree")
        assert only.json()["due"][0]["kind"] == "question"
        r = await api.http.post("/api/review/tree", json={"grade": "good", "kind": "question"})
        assert r.status_code == 200, r.text
        assert services.learner_store.grades().records[-1].prompt_kind == "question"


@pytest.mark.parametrize("reply", [
    {**GOOD, "evidence_quote": "a tree has exactly n-1 edges"},  # not what the node says
    {**GOOD, "answer": "What kind of graph is a tree?"},  # only repeats the question
    {**GOOD, "answer": "A weighted graph whose coloured edges carry costs."},  # not in its quote
    None,  # no reply: the model call fails (a ModelError)
])
async def test_a_question_failing_the_check_is_dropped(reply, caplog) -> None:
    model = scripted(answerer=[reply] if reply is not None else [])
    services = services_with(model, "ollama/llama3")
    async with scripted_app(None, services=services) as (api, runtime):
        first = await _card(api, runtime)
        assert model.calls("answerer") >= 1
        second = await _card(api, runtime)
        assert second["kind"] in ("cloze", "recall") and second["prompt"] == first["prompt"]
        assert services.learner_store.questions().records == ()
        calls = model.calls("answerer")
        await _card(api, runtime)
        assert model.calls("answerer") == calls  # tried again tomorrow, not on every read
    assert "model-free prompt kept" in caplog.text


async def test_no_model_means_model_free_prompts_and_no_call(monkeypatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    model = scripted(answerer=[GOOD])
    services = services_with(model, "openai/gpt-4.1-mini")  # no key saved or in the environment
    async with scripted_app(None, services=services) as (api, runtime):
        for _ in range(2):
            card = await _card(api, runtime)
            assert card["kind"] == "cloze"
        assert model.calls("answerer") == 0
        assert services.learner_store.questions().records == ()


async def test_a_studied_note_with_no_card_worth_making_gets_a_checked_question() -> None:
    # A note whose one sentence points back at what it is about: no model-free card, so it
    # is not in the queue; with a model, it gets a question quoting the note, and a place.
    from studyhall.core.contracts.graph import Evidence, PropositionCreated

    said = "It was written down in a hurry, long before the exam."
    model = scripted(answerer=[GOOD, {"question": "How was this note written?",
                                      "answer": "Written down in a hurry.",
                                      "evidence_quote": said}])
    services = services_with(model, "ollama/llama3")
    services.graph_store.append_propositions([PropositionCreated(
        id="prp_scratch", node_id="scratch", text="Scratch", source_id="note_s", run_id="r1",
        at=NOON, evidence=(Evidence(source_id="note_s", message_id="note_s#Scratch",
                                    quote=said),))])
    services.graph_store.append_quiz_events([quiz("scratch", "correct", 2)])
    async with scripted_app(None, services=services) as (api, runtime):
        first = await api.http.get("/api/review")
        assert [c["node_id"] for c in first.json()["due"]] == ["tree"]
        await runtime.supervisor.idle()
        assert model.calls("answerer") == 2  # the shown card's, then the card-less note's
        due = (await api.http.get("/api/review")).json()["due"]
        scratch = next(c for c in due if c["node_id"] == "scratch")
        assert scratch["kind"] == "question" and scratch["topic"] == "Scratch"
