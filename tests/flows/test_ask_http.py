"""POST /api/ask over the real app with scripted models: sources first, tokens, then finish."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from studyhall.server.runtime.material import import_course_material

from tests.flows.session_support import parse_sse, scripted_app, write_script
from tests.support.course import HashEmbedder, OverlapScorer, vtt

LECTURE = [
    (0, 6, "Mark and sweep marks every object reachable from the roots."),
    (7, 13, "The sweep phase frees every unmarked object."),
    (100, 106, "Reference counting cannot reclaim cycles of objects."),
]


async def _ask(script: dict[str, Any] | None, tmp_path: Path, body: dict[str, Any]):  # type: ignore[no-untyped-def]
    (tmp_path / "course").mkdir()
    (tmp_path / "course" / "gc.vtt").write_text(vtt(LECTURE))
    path = write_script(tmp_path / "script.json", script) if script is not None else None
    async with scripted_app(path) as (api, services):
        services.local_encoder = HashEmbedder()  # fast stand-ins for the bundled MiniLM
        services.passage_scorer = OverlapScorer()
        await import_course_material(services, str(tmp_path / "course"))
        r = await api.http.post("/api/ask", json=body)
        return r, (parse_sse(r.text) if r.headers.get("content-type", "").startswith("text/event-stream") else [])


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
    assert events[0] == ("sources", {"case": "NO_MATCH", "graded": True, "sources": []})
    text = "".join(d["text"] for n, d in events if n == "text-delta")
    assert "general knowledge" in text and "[" not in text
    assert events[-1][1]["removed_markers"] == 1 and events[-1][1]["cited"] == []


async def test_without_a_model_the_passages_come_alone(tmp_path: Path):
    _, events = await _ask({"prober": [{"text": "hi"}]}, tmp_path, {"question": "What frees unmarked objects?"})
    assert [n for n, _ in events] == ["sources", "finish"]
    assert events[-1][1]["answered"] is False and events[-1][1]["ranked"]


async def test_bad_requests_are_refused_with_a_reason(tmp_path: Path):
    r, _ = await _ask(None, tmp_path, {"question": "   "})
    assert r.status_code == 400 and "empty" in r.json()["message"]
    async with scripted_app(None) as (api, _services):
        r = await api.http.post("/api/ask", json={"question": "this?", "t": 5})
        assert r.status_code == 400 and "source_id" in r.json()["message"]
        r = await api.http.post("/api/ask", content=b"{not json")
        assert r.status_code == 400
