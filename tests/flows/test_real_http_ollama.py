"""An Ollama-style server over real HTTP (``ollama_chat/<name>`` at ``/api/chat``, NDJSON
lines): a keyless local server needs no key, streams a session with a whole-object tool call
finished as "stop", builds the graph with its ``format`` parameter, and a cut mid-answer is
recoverable like any other."""

from __future__ import annotations

from studyhall.core.contracts.chat import ChatRecord
from studyhall.core.library.graph.snapshot import graph_snapshot

from tests.support import model_replies as reply
from tests.support.graph_lesson import PROBE_QUIZ
from tests.support.jobs import settle
from tests.support.library_session import CHAT, T0, good_extraction, keep_all, session
from tests.support.model_server import model_server
from tests.support.real_models import real_app
from tests.support.runs import finished


async def test_a_keyless_ollama_server_runs_a_session_and_needs_no_key() -> None:
    with model_server(style="ollama") as server:
        server.script("prober", reply.text("Hi from Ollama.", reasoning="thinking quietly"),
                      reply.tool("quiz", PROBE_QUIZ, say="One question:"))
        server.script("labeler", *[reply.text("Graphs")] * 4)
        async with real_app(server, provider="ollama_chat") as (api, runtime, _services):
            view = (await api.http.get("/api/settings")).json()
            assert view["needed_keys"] == [] or "ollama_chat" not in view["needed_keys"]
            chat_id = await api.new_chat()
            turn = await api.say(chat_id, "hi")
            assert turn.text() == "Hi from Ollama." and turn.last[0] == "finish"
            assert turn.of("usage")[0]["input_tokens"] == 17
            turn = await api.say(chat_id, "ready")
            (call,) = turn.of("tool-call")
            assert call["name"] == "quiz" and turn.last[1]["pending"] == [call["tool_call_id"]]
            await settle(runtime)
        chats = server.chat_requests()
        assert {s.path for s in chats} == {"/api/chat"} and all(s.key is None for s in chats)


async def test_extraction_on_ollama_sends_its_format_and_builds_the_graph() -> None:
    with model_server(style="ollama") as server:
        server.script("extractor", reply.answer_json(good_extraction()))
        server.script("auditor", reply.answer_json(keep_all("p1", "p2")))
        server.script("labeler", *[reply.text("Derivatives")] * 4)
        async with real_app(server, provider="ollama_chat") as (api, runtime, services):
            services.chat_store.create(ChatRecord(id=CHAT, created_at=T0, updated_at=T0,
                                                  messages=tuple(session())))
            r = await api.http.post(f"/api/chats/{CHAT}/extract")
            run = await finished(runtime.library.extraction_run(r.json()["run_id"]))
            await settle(runtime)
        # p1, p2 and the session topic they hang under (issue 28 item 5)
        assert run.status == "done" and len(graph_snapshot(services.graph_store).nodes) == 3
        (extracting,) = server.chat_requests("extractor")
        assert extracting.body["format"] == "json"  # Ollama's JSON mode


async def test_a_cut_ollama_stream_keeps_the_text_and_try_again_replaces_it() -> None:
    words = "Ollama streams one JSON line per piece of the answer."
    with model_server(style="ollama") as server:
        server.script("prober", reply.cut_text(words, after=16), reply.text(words))
        server.script("labeler", *[reply.text("Lines")] * 4)
        async with real_app(server, provider="ollama_chat") as (api, _runtime, _services):
            chat_id = await api.new_chat()
            turn = await api.say(chat_id, "hi")
            assert turn.last[0] == "error" and turn.last[1]["kind"] == "stream_cut"
            assert "your local" not in turn.last[1]["message"]  # named by its address
            assert f"127.0.0.1:{server.port}" in turn.last[1]["message"]
            again = await api.resume(chat_id)
            assert again.text() == words
            chat = await api.chat(chat_id)
            assert [m["role"] for m in chat["messages"]] == ["user", "assistant"]
            assert chat["messages"][-1]["parts"] == [{"type": "text", "text": words}]
