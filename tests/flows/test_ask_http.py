"""POST /api/ask over the real app with scripted models: sources first, tokens, then finish;
the model reranker's grades decide the coverage case, and a reranker that fails or answers
malformed leaves the calibrated no-model case in charge (never a crash, never an invented
citation)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from studyhall.server.app import build_services
from studyhall.server.config import load_config

from tests.support.course import OverlapScorer, vtt
from tests.support.embedder import HashEmbedder
from tests.support.session_api import PORT, parse_sse, scripted_app, write_script
from tests.support.shelf import lecture_cues

LECTURE = [
    (0, 6, "Mark and sweep marks every object reachable from the roots."),
    (7, 13, "The sweep phase frees every unmarked object."),
    (100, 106, "Reference counting cannot reclaim cycles of objects."),
]


async def _ask(script: dict[str, Any] | None, tmp_path: Path, body: dict[str, Any],  # type: ignore[no-untyped-def]
               compare_without_model: bool = False, lecture: list[tuple[float, float, str]] = LECTURE):
    (tmp_path / "course").mkdir()
    (tmp_path / "course" / "gc.vtt").write_text(vtt(lecture))
    path = write_script(tmp_path / "script.json", script) if script is not None else None
    services = replace(  # fast stand-ins for the bundled MiniLM
        build_services(load_config(port=PORT, script_path=path)),
        embedder=HashEmbedder(), passage_scorer=OverlapScorer())
    async with scripted_app(path, services) as (api, runtime):
        await runtime.library.index_material(str(tmp_path / "course"))
        r = await api.http.post("/api/ask", json=body)
        events = parse_sse(r.text) if r.headers.get("content-type", "").startswith("text/event-stream") else []
        if compare_without_model:
            # The same question through the no-model path, in the same app and index.
            plain = [(e.name, e.model_dump(mode="json", exclude_unset=True))
                     async for e in runtime.ask.answer(body["question"], use_model=False)]
            return r, events, plain
        return r, events


async def test_sse_order_and_invented_markers_removed(tmp_path: Path):
    script = {
        "reranker": [{"json": {"grades": [{"n": 1, "grade": "answers"}, {"n": 2, "grade": "related"}]}}],
        "answerer": [{"text": "It marks what the roots reach [1], then sweeps [4]."}],
    }
    r, events = await _ask(script, tmp_path, {"question": "What does mark and sweep mark?"})
    assert r.status_code == 200
    names = [n for n, _ in events]
    assert names[0] == "sources" and names[-1] == "finish"
    assert "text-delta" in names and names.index("text-delta") > 0
    sources = events[0][1]
    assert sources["case"] == "MATCH" and sources["graded"] is True
    assert sources["sources"][0]["n"] == 1 and sources["sources"][0]["link"].startswith("gc.vtt#t=")
    text = "".join(d["text"] for n, d in events if n == "text-delta")
    assert "[1]" in text and "[4]" not in text
    finish = events[-1][1]
    assert finish["answered"] is True and finish["removed_markers"] == 1 and finish["cited"] == [1]


async def test_no_match_answer_carries_no_citation(tmp_path: Path):
    script = {
        "reranker": [{"json": {"grades": [{"n": 1, "grade": "no"}, {"n": 2, "grade": "no"}]}}],
        "answerer": [{"text": "Lima is the capital of Peru [1]."}],
    }
    _, events = await _ask(script, tmp_path, {"question": "What is the capital of Peru?"})
    assert events[0] == ("sources", {"case": "NO_MATCH", "graded": True, "sources": [],
                                     "rewritten": None, "notices": []})
    text = "".join(d["text"] for n, d in events if n == "text-delta")
    assert "general knowledge" in text and "[" not in text
    assert events[-1][1]["removed_markers"] == 1 and events[-1][1]["cited"] == []


async def test_without_a_model_the_passages_come_alone(tmp_path: Path):
    _, events = await _ask({"prober": [{"text": "hi"}]}, tmp_path, {"question": "What frees unmarked objects?"})
    assert [n for n, _ in events] == ["sources", "finish"]
    assert events[-1][1]["answered"] is False and events[-1][1]["ranked"]
    # What the learner reads instead of an answer: the ranked passages, deep-linkable.
    passages = events[-1][1]["passages"]
    assert [p["link"] for p in passages] == events[-1][1]["ranked"][: len(passages)]
    assert passages[0]["n"] == 1 and passages[0]["source_id"] and passages[0]["text"]


async def test_without_a_model_near_passages_are_unconfirmed_and_far_ones_absent(tmp_path: Path):
    # Scores alone cannot tell "answers it" from "is about it": near the question the case says
    # only a model could tell; far from every passage it may say the material lacks it.
    near = await _no_model_sources(tmp_path / "near", "What does the sweep phase free?")
    far = await _no_model_sources(tmp_path / "far", "What is the capital of Peru?")
    assert near["case"] == "NO_MATCH" and near["unconfirmed"] is True and near["sources"] == []
    assert far["case"] == "NO_MATCH" and "unconfirmed" not in far  # sent only when true


async def test_without_a_model_each_passage_points_at_its_sentence_nearest_the_question(
        tmp_path: Path):
    _, events = await _ask(None, tmp_path, {"question": "What does the sweep phase free?"})
    passages = events[-1][1]["passages"]
    pointed = [p for p in passages if "closest" in p]
    assert pointed and pointed[0]["closest"] == "The sweep phase frees every unmarked object."
    assert pointed[0]["start"] == 0 and pointed[0]["closest_start"] == 7  # its own cue's second
    assert all(p["closest"] in p["text"] for p in pointed)  # the window marks it in place
    # A passage sharing at most one word of the question points nowhere.
    assert all("closest" not in p for p in passages if "sweep" not in p["text"].lower())


async def test_without_a_model_a_lecture_passage_gives_the_moment_its_nearest_sentence_starts(
        tmp_path: Path):
    # A lecture's passage spans about a minute: "ATP synthase turns like a rotor" is said at
    # 12:18, 24 s into the passage that starts at 11:54 ("Now, on enzymes: point 120 …").
    _, events = await _ask(None, tmp_path, {"question": "How does ATP synthase turn like a rotor?"},
                           lecture=lecture_cues())
    passages = events[-1][1]["passages"]
    rotor = next(p for p in passages if p.get("closest", "").startswith("ATP synthase turns"))
    assert rotor["start"] == 714 and rotor["text"].startswith("Now, on enzymes: point 120")
    assert rotor["closest_start"] == 738  # the cue where the marked sentence begins


async def _no_model_sources(tmp_path: Path, question: str) -> dict[str, Any]:
    tmp_path.mkdir()
    _, events = await _ask(None, tmp_path, {"question": question})
    assert [n for n, _ in events] == ["sources", "finish"]
    assert events[-1][1]["answered"] is False
    return events[0][1]


async def test_bad_requests_are_refused_with_a_reason(tmp_path: Path):
    r, _ = await _ask(None, tmp_path, {"question": "   "})
    assert r.status_code == 400 and "empty" in r.json()["message"]
    async with scripted_app(None) as (api, _runtime):
        r = await api.http.post("/api/ask", json={"question": "this?", "t": 5})
        assert r.status_code == 400 and "source_id" in r.json()["message"]
        r = await api.http.post("/api/ask", content=b"{not json")
        assert r.status_code == 400


def _text(events: list[tuple[str, dict[str, Any]]]) -> str:
    return "".join(d["text"] for n, d in events if n == "text-delta")


async def test_a_partial_answer_is_a_match_and_only_it_is_cited(tmp_path: Path):
    script = {
        "reranker": [{"json": {"grades": [{"n": 1, "grade": "related"}, {"n": 2, "grade": "partial"}]}}],
        "answerer": [{"text": "Unmarked objects are freed [1]; see also [2]."}],
    }
    _, events = await _ask(script, tmp_path, {"question": "What frees unmarked objects?"})
    sources, finish = events[0][1], events[-1][1]
    assert sources["case"] == "MATCH" and sources["graded"] is True
    # Only the passage graded as (partly) answering may be cited: the second one retrieved.
    assert [s["link"] for s in sources["sources"]] == [finish["ranked"][1]]
    assert finish["cited"] == [1] and finish["removed_markers"] == 1 and "[2]" not in _text(events)


async def test_related_only_grades_are_the_related_case(tmp_path: Path):
    script = {
        "reranker": [{"json": {"grades": [{"n": 1, "grade": "related"}, {"n": 2, "grade": "no"}]}}],
        "answerer": [{"text": "Your lecture touches on this [1]; in general, compaction moves objects [3]."}],
    }
    _, events = await _ask(script, tmp_path, {"question": "How does compaction move live objects?"})
    sources = events[0][1]
    assert sources["case"] == "RELATED" and len(sources["sources"]) == 1
    assert "[1]" in _text(events) and "[3]" not in _text(events)
    assert events[-1][1]["cited"] == [1] and events[-1][1]["removed_markers"] == 1


@pytest.mark.parametrize("reranker", [
    [{"text": "Passage 1 answers it."}, {"text": "Definitely passage 1."}],  # not JSON, twice
    [{"json": {"grades": [{"n": 9, "grade": "answers"}]}}, {"json": {"grades": "all good"}}],  # wrong shape
    [{"json": {"grades": [{"n": 1, "grade": "perfect"}]}}, {"json": {"verdict": "answers"}}],  # unknown grade
    [{"error": "auth"}],  # the provider refused
])
async def test_a_failing_reranker_leaves_the_calibrated_case_and_invents_nothing(
        tmp_path: Path, reranker: list[dict[str, Any]]):
    script = {"reranker": reranker, "answerer": [{"text": "Sweeping frees them [1], as lecture [2] says [7]."}]}
    question = "What frees unmarked objects?"
    r, events, plain = await _ask(script, tmp_path, {"question": question}, compare_without_model=True)
    assert r.status_code == 200 and events[0][0] == "sources" and events[-1][0] == "finish"
    sources = events[0][1]
    assert sources["graded"] is False
    assert [n["kind"] for n in sources["notices"]] == ["grader"]
    advice = "was refused" if "error" in reranker[0] else "supports JSON output"
    assert advice in sources["notices"][0]["message"]
    # Exactly what a learner without a model gets: same case, same citable passages.
    assert sources["case"] == plain[0][1]["case"] and sources["sources"] == plain[0][1]["sources"]
    finish = events[-1][1]
    assert finish["answered"] is True
    assert all(1 <= n <= len(sources["sources"]) for n in finish["cited"])
    text = _text(events)
    assert "[7]" not in text
    if not sources["sources"]:
        assert "[" not in text and finish["removed_markers"] == 3


def test_without_a_model_a_notes_passages_read_as_text_not_markdown(tmp_path: Path):
    from tests.support.shelf_client import imported, ready

    course, client = ready(tmp_path)
    with client:
        imported(client, course)
        shown = []
        for question in ("How much ATP does glycolysis net?", "What does net_atp return?"):
            passages = parse_sse(client.post("/api/ask", json={"question": question}).text
                                 )[-1][1]["passages"]
            shown += [t for p in passages for t in (p["text"], p.get("closest") or "")]
    # Was "nets **two ATP**", "[[Krebs cycle]]", "```python def net_atp…", "![[glycolysis-…".
    for mark in ("**", "[[", "]]", "```", "![", "glycolysis-diagram"):
        assert not any(mark in t for t in shown), (mark, shown)
    assert any("nets two ATP. It runs" in t for t in shown)
    assert any("See Krebs cycle for what happens" in t for t in shown)  # a link: its label
    assert any("def net_atp(made: int = 4" in t for t in shown)  # code: as written
