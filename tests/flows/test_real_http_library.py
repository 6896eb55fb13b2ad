"""Extraction, Ask and a job over real HTTP with the production litellm adapter against a
scripted OpenAI-compatible server on 127.0.0.1 — as LM Studio (which refuses ``json_object``),
a server that takes no ``response_format`` at all, and one that wants a key."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from studyhall.core.contracts.chat import ChatRecord
from studyhall.core.library.graph.snapshot import graph_snapshot

from tests.support import model_replies as reply
from tests.support.course import OverlapScorer, vtt
from tests.support.embedder import HashEmbedder
from tests.support.jobs import PROBE, settle, steers
from tests.support.library_session import CHAT, T0, good_extraction, keep_all, session
from tests.support.model_replies import Call
from tests.support.model_server import LM_STUDIO_FORMAT_REFUSAL, model_server
from tests.support.real_models import real_app, real_services
from tests.support.runs import finished
from tests.support.session_api import parse_sse

KEY = "sk-local-server-0123456789"


async def _extract(api, runtime, services) -> tuple[str, int]:  # type: ignore[no-untyped-def]
    services.chat_store.create(ChatRecord(id=CHAT, created_at=T0, updated_at=T0,
                                          messages=tuple(session())))
    r = await api.http.post(f"/api/chats/{CHAT}/extract")
    run = await finished(runtime.library.extraction_run(r.json()["run_id"]))
    return run.status, len(graph_snapshot(services.graph_store).nodes)


async def test_extraction_on_lm_studio_uses_json_schema_and_builds_the_graph() -> None:
    with model_server(refuse_formats={"json_object"}) as server:
        server.script("extractor", reply.answer_json(good_extraction()))
        server.script("auditor", reply.answer_json(keep_all("p1", "p2")))
        server.script("labeler", *[reply.text("Derivatives")] * 4)
        async with real_app(server) as (api, runtime, services):
            status, nodes = await _extract(api, runtime, services)
            await settle(runtime)
        assert (status, nodes) == ("done", 3)  # p1, p2 and the session topic they hang under
        (extractor,) = server.chat_requests("extractor")
        assert extractor.response_format == "json_schema"
        schema = extractor.body["response_format"]["json_schema"]["schema"]
        assert "propositions" in schema["properties"]


async def test_a_server_that_takes_no_response_format_gets_the_schema_in_the_prompt() -> None:
    with model_server(refuse_formats={"json_schema", "json_object"}) as server:
        server.script("extractor", reply.answer_json(good_extraction()))
        server.script("auditor", reply.answer_json(keep_all("p1", "p2")))
        server.script("labeler", *[reply.text("Derivatives")] * 4)
        async with real_app(server) as (api, runtime, services):
            status, nodes = await _extract(api, runtime, services)
            await settle(runtime)
        assert (status, nodes) == ("done", 3)  # p1, p2 and the session topic they hang under
        tried = [s.response_format for s in server.chat_requests("extractor")]
        assert tried == ["json_schema", "json_object", None]  # probed once, then plain text
        answered = server.chat_requests("extractor")[-1]
        assert "follows this JSON Schema" in answered.body["messages"][0]["content"]
        # the auditor's server is the same: it already knows, and asks in plain text at once
        assert [s.response_format for s in server.chat_requests("auditor")][-1] is None


async def test_a_failed_extraction_keeps_the_servers_reason() -> None:
    with model_server() as server:
        server.script("extractor", *[reply.fail(400, "context length 4096 exceeded by prompt")])
        server.script("labeler", *[reply.text("Derivatives")] * 4)
        async with real_app(server) as (api, runtime, services):
            services.chat_store.create(ChatRecord(id=CHAT, created_at=T0, updated_at=T0,
                                                  messages=tuple(session())))
            r = await api.http.post(f"/api/chats/{CHAT}/extract")
            run = await finished(runtime.library.extraction_run(r.json()["run_id"]))
            await settle(runtime)
        assert run.status == "error"
        assert "context length 4096 exceeded by prompt" in (run.error or "")
        assert (run.error or "").startswith("Your server at 127.0.0.1:")


async def test_ask_grades_and_answers_over_http(tmp_path: Path) -> None:
    (tmp_path / "course").mkdir()
    (tmp_path / "course" / "gc.vtt").write_text(vtt([
        (0, 6, "Mark and sweep marks every object reachable from the roots."),
        (7, 13, "The sweep phase frees every unmarked object."),
    ]))
    with model_server(refuse_formats={"json_object"}) as server:
        server.script("reranker", reply.answer_json({"grades": [{"n": 1, "grade": "answers"}]}))
        server.script("answerer", reply.text("It marks what the roots reach [1]."))
        services = replace(real_services(server), embedder=HashEmbedder(),
                           passage_scorer=OverlapScorer())
        async with real_app(server, services) as (api, runtime, _):
            await runtime.library.index_material(str(tmp_path / "course"))
            r = await api.http.post("/api/ask", json={"question": "What does mark and sweep mark?"})
        events = parse_sse(r.text)
        sources, finish = events[0][1], events[-1][1]
        assert sources["case"] == "MATCH" and sources["graded"] is True
        assert "".join(d["text"] for n, d in events if n == "text-delta") == (
            "It marks what the roots reach [1].")
        assert finish["answered"] is True and finish["cited"] == [1]
        (grading,) = server.chat_requests("reranker")  # LM Studio: json_schema, accepted
        assert grading.response_format == "json_schema"


async def test_a_job_runs_its_writer_over_http_and_is_delivered_once() -> None:
    notes = {"title": "Heaps", "markdown": "# Heaps\n\nA heap is a complete binary tree stored "
                                           "in an array; the parent of i is (i-1)//2."}
    with model_server() as server:
        server.script("prober", reply.tools(Call("probe_done", PROBE["tool_calls"][0]["arguments"])))
        server.script("teacher",
                      reply.tools(Call("notes", {"topic": "heaps"}, fragments=5),
                                  say="Let me write that down."),
                      reply.text("Meanwhile: a heap is a complete binary tree."),
                      reply.text("Your notes are ready."))
        server.script("notes_writer", reply.answer_json(notes))
        server.script("labeler", *[reply.text("Heaps")] * 4)
        async with real_app(server) as (api, runtime, _services):
            chat_id = await api.new_chat("heaps")
            turn = await api.say(chat_id, "Teach me heaps")
            assert turn.last[0] == "finish" and "Meanwhile" in turn.text()
            await settle(runtime)
            (job,) = runtime.services.job_store.list(chat_id)
            assert (job.kind, job.status) == ("notes", "done")
            chat = await api.chat(chat_id)
            assert len(steers(chat)) == 1
            assert chat["messages"][-1]["parts"][0]["text"] == "Your notes are ready."


async def test_a_server_that_wants_a_key_says_so_and_works_once_it_is_saved() -> None:
    with model_server(require_key=KEY) as server:
        server.script("prober", reply.text("Hello with a key."))
        server.script("labeler", *[reply.text("Keys")] * 4)
        services = real_services(server)
        services.secret_store.set("openai", "sk-hosted-openai-key-999")  # never for this server
        async with real_app(server, services) as (api, _runtime, _):
            view = (await api.http.get("/api/settings")).json()
            assert view["needed_keys"] == [] or all("127.0.0.1" not in n for n in view["needed_keys"])
            chat_id = await api.new_chat()
            error = (await api.say(chat_id, "hi")).last[1]
            address = f"http://127.0.0.1:{server.port}/v1"
            assert error["kind"] == "auth" and error["action"] == "open-settings"
            assert error["message"].startswith(f"Your server at 127.0.0.1:{server.port} asks")
            assert "this server wants a key" in error["message"] and address in error["message"]
            assert "openai" not in error["message"]

            typed = f"HTTP://127.0.0.1:{server.port}/v1/"
            saved = await api.http.put("/api/settings/keys", json={"name": typed, "value": KEY})
            assert [k["name"] for k in saved.json()["keys"]] == sorted([address, "openai"])
            again = await api.resume(chat_id)
            assert again.text() == "Hello with a key."

            await api.http.put("/api/settings/keys", json={"name": address, "value": KEY + "x"})
            refused = (await api.say(chat_id, "again")).last[1]
            assert "refused the prober's key" in refused["message"]
            assert f"Replace the key saved for {address}" in refused["message"]
        assert "sk-hosted-openai-key-999" not in {s.key for s in server.requests}
        assert KEY not in refused["message"]


def test_lm_studio_refusal_text_is_the_one_the_fallback_recognises() -> None:
    from studyhall.adapters.llm.litellm_errors import names_response_format
    from studyhall.core.errors import ModelBadRequest

    assert names_response_format(ModelBadRequest(f"rejected (400: {LM_STUDIO_FORMAT_REFUSAL})"))
    assert not names_response_format(ModelBadRequest("rejected (400: prompt too long)"))
