"""Issue 31 item 4: every structured role answers under a bounded schema (no string or array
without an upper bound, so a grammar cannot run away), and a cut answer is a failed call —
asked again, then nothing written — never partial data."""

from __future__ import annotations

from typing import Any

import pytest
from studyhall.adapters.llm.scripted import ScriptedChatModel
from studyhall.core.agents.auditor import ModelAuditor
from studyhall.core.agents.extractor import ModelExtractor
from studyhall.core.agents.grounding import Grounding
from studyhall.core.agents.quiz_writer import write_quiz
from studyhall.core.agents.reranker import ModelReranker
from studyhall.core.agents.review_question_writer import write_review_question
from studyhall.core.agents.schema_bounds import bounded, unbounded_paths
from studyhall.core.agents.writers import ROLES, write_artifact
from studyhall.core.contracts.search import Chunk
from studyhall.core.errors import JobFailed, ModelOutputInvalid
from studyhall.core.library.extraction.findings import ExtractorOutput

from tests.support.small_model import one_view_batch

BATCH = one_view_batch()
CUT = {"text": '{"propositions": [{"key": "k1", "text": "BFS visits the nearest nodes', "finish": "length"}


def test_bounds_are_added_where_missing_and_kept_where_given() -> None:
    schema = {"type": "object", "properties": {
        "a": {"type": "string"}, "b": {"type": "string", "maxLength": 5},
        "c": {"type": "array", "items": {"type": ["string", "null"]}},
        "d": {"anyOf": [{"type": "string"}, {"type": "number"}]},
        "e": {"type": "string", "enum": ["x", "y"]}}}
    out = bounded(schema)
    assert unbounded_paths(out) == []
    assert out["properties"]["b"]["maxLength"] == 5
    assert "maxLength" not in out["properties"]["e"]
    assert unbounded_paths(schema) == ["$.properties.a", "$.properties.c",
                                       "$.properties.c.items", "$.properties.d.anyOf[0]"]


async def _requests_of_every_structured_role() -> list[Any]:
    model = ScriptedChatModel({
        "extractor": [{"json": {"propositions": [], "edges": []}}],
        "auditor": [{"json": {"verdicts": []}}],
        "reranker": [{"json": {"grades": [{"n": 1, "grade": "answers"}]}}],
        "answerer": [{"json": {"question": "Q?", "answer": "A.", "evidence_quote": "BFS"}},
                     {"json": {"questions": []}}, {"json": {"questions": []}}],
        **{role: [{"text": "{}"}] * 3 for role in set(ROLES.values())},
    })
    await ModelExtractor(model, "extract").extract(BATCH)
    await ModelAuditor(model, "audit").audit(BATCH, ExtractorOutput(propositions=()), {})
    await ModelReranker(model).rerank("bfs?", [Chunk(id="s:1", source_id="s", path="bfs.md", kind="note", title="BFS", anchor="", text="BFS")])
    await write_review_question(model, "BFS visits nearest first", ["BFS"])
    with pytest.raises(ModelOutputInvalid):
        await write_quiz(model, [("s#1", "BFS visits nearest first")], count=1)
    for kind in ROLES:
        with pytest.raises(JobFailed):
            await write_artifact(model, "write", kind, {"topic": "BFS"}, Grounding(), attempts=1)
    return model.requests


async def test_every_structured_role_sends_a_bounded_schema() -> None:
    requests = await _requests_of_every_structured_role()
    roles = {r.role for r in requests}
    assert {"extractor", "auditor", "reranker", "answerer", *ROLES.values()} <= roles
    for request in requests:
        assert request.response_schema is not None, request.role
        assert unbounded_paths(request.response_schema) == [], request.role


async def test_an_extraction_cut_at_max_tokens_is_asked_again_and_then_fails_whole() -> None:
    model = ScriptedChatModel({"extractor": [CUT, CUT]})
    with pytest.raises(ModelOutputInvalid) as info:
        await ModelExtractor(model, "extract").extract(BATCH)
    assert "cut off" in str(info.value) and "Nothing was written" in str(info.value)
    assert "cut off" in model.requests[1].messages[-1]["content"]
    assert "extraction will retry" in str(info.value)


async def test_a_failed_grading_does_not_promise_that_extraction_retries() -> None:
    # The reranker's failure leaves the scores in charge; no extraction is coming back for it.
    model = ScriptedChatModel({"reranker": [CUT, CUT]})
    chunk = Chunk(id="s:1", source_id="s", path="bfs.md", kind="note", title="BFS", anchor="",
                  text="BFS")
    with pytest.raises(ModelOutputInvalid) as info:
        await ModelReranker(model).rerank("bfs?", [chunk])
    assert "Nothing was written." in str(info.value) and "extraction" not in str(info.value)


async def test_a_cut_extraction_then_a_whole_one_is_used_whole() -> None:
    whole = {"json": {"propositions": [{"key": "k1", "text": "BFS visits nearest first",
                                        "evidence": [{"message_id": "msg_a1",
                                                      "quote": "BFS visits the nearest nodes first."}]}],
                      "edges": []}}
    model = ScriptedChatModel({"extractor": [CUT, whole]})
    extraction = await ModelExtractor(model, "extract").extract(BATCH)
    assert [p.key for p in extraction.output.propositions] == ["k1"]


async def test_a_cut_artifact_is_never_delivered() -> None:
    cut = {"text": '{"title": "BFS", "markdown": "# BFS\\nBreadth', "finish": "length"}
    model = ScriptedChatModel({"notes_writer": [cut, cut]})
    with pytest.raises(JobFailed) as info:
        await write_artifact(model, "write", "notes", {"topic": "BFS"}, Grounding(), attempts=2)
    assert "cut off" in str(info.value)
