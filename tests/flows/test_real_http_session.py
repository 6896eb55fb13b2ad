"""A session over real HTTP: the production litellm adapter against a scripted OpenAI-compatible
server on 127.0.0.1 (``openai/<name>`` + ``api_base``), as a learner with LM Studio, vLLM or a
hosted OpenAI-compatible provider runs it. Streaming text, fragmented and parallel tool calls,
hidden reasoning, usage, retries, and a stream cut mid-text and mid-question that Try again
recovers without duplicating anything.
"""

from __future__ import annotations

import time

from studyhall.core.contracts.settings import Timeouts

from tests.support import model_replies as reply
from tests.support.graph_lesson import PROBE_ARGS, PROBE_QUIZ
from tests.support.model_replies import Call
from tests.support.model_server import model_server
from tests.support.real_models import real_app

GREETING = "Hi! A few quick questions so the teacher starts at the right place."


def roles_of(chat: dict) -> list[tuple[str, str | None]]:
    return [(m["role"], m["agent"]) for m in chat["messages"]]


async def test_a_whole_session_runs_over_http_with_fragments_reasoning_and_usage() -> None:
    with model_server() as server:
        server.script("prober",
                      reply.text(GREETING, reasoning="(the learner seems new)"),
                      reply.tool("quiz", PROBE_QUIZ, say="First one:", fragments=60,
                                 finish_reason="stop"),  # Ollama-style: "stop" with a call
                      reply.tools(Call("probe_done", PROBE_ARGS, fragments=9),
                                  say="Thanks, that helps."))
        server.script("teacher", reply.text("Trees first: a tree on n vertices has n-1 edges."))
        server.script("labeler", *[reply.text("Graph basics")] * 3)
        async with real_app(server) as (api, runtime, _services):
            chat_id = await api.new_chat("graph theory")
            turn = await api.say(chat_id, "Hi, I want to learn graph theory")
            assert turn.text() == GREETING and "seems new" not in turn.text()
            assert turn.last == ("finish", {"reason": "stop", "phase": "probe", "pending": []})
            (usage,) = turn.of("usage")
            assert usage["input_tokens"] == 17 and usage["output_tokens"] > 0
            assert usage["cost_usd"] is None  # an unpriced local model: unknown, never 0

            turn = await api.say(chat_id, "Ready")
            (call,) = turn.of("tool-call")
            assert call["name"] == "quiz" and call["state"] == "input-available"
            question = call["presented"]["questions"][0]
            assert sorted(question["choices"]) == ["10", "4", "5"]

            right = question["choices"].index("4")
            turn = await api.answer(chat_id, call["tool_call_id"], {"choices": [[right]]})
            assert [s["agent"] for s in turn.of("message-start")] == ["prober", "teacher"]
            assert "n-1 edges" in turn.text() and turn.last[0] == "finish"
            await runtime.supervisor.idle()
            chat = await api.chat(chat_id)
            assert chat["phase"] != "probe" and chat["failure"] is None
            assert roles_of(chat)[-1] == ("assistant", "teacher")
        # no key exists for this server, so none was sent (the client library needs a dummy)
        keys = {seen.key for seen in server.chat_requests()}
        assert keys == {"sk-no-key-required"}
        # every request streamed and asked for usage
        assert all(s.body["stream"] is True for s in server.chat_requests())


async def test_a_stream_cut_mid_text_keeps_the_text_marked_and_try_again_replaces_it() -> None:
    words = "Graphs are made of vertices and edges, and a tree is a graph with no cycles."
    with model_server() as server:
        server.script("prober", reply.cut_text(words, after=30), reply.text(words))
        server.script("labeler", *[reply.text("Graphs")] * 3)
        async with real_app(server) as (api, runtime, _services):
            chat_id = await api.new_chat()
            turn = await api.say(chat_id, "hi")
            shown = turn.text()
            assert 0 < len(shown) <= 30 and turn.last[0] == "error"
            error = turn.last[1]
            assert error["kind"] == "stream_cut" and error["action"] == "retry"
            assert "127.0.0.1" in error["message"] and "Try again" in error["message"]
            assert "Start your local model server" not in error["message"]
            await runtime.supervisor.idle()

            chat = await api.chat(chat_id)  # a reload: the text, marked, and why it stopped
            cut = chat["messages"][-1]
            assert cut["parts"][0] == {"type": "text", "text": shown}
            assert {"type": "data", "name": "incomplete", "data": {}} in cut["parts"]
            assert chat["failure"]["kind"] == "stream_cut"
            assert chat["failure"]["message"] == error["message"]

            again = await api.resume(chat_id)  # Try again: never "Nothing to continue"
            assert again.status == 200 and again.text() == words
            assert again.of("message-start")[0]["message_id"] == cut["id"]
            chat = await api.chat(chat_id)
            assert roles_of(chat) == [("user", None), ("assistant", "prober")]
            assert chat["messages"][-1]["parts"] == [{"type": "text", "text": words}]
            assert chat["failure"] is None
            assert (await api.resume(chat_id)).status == 409  # now there is nothing owed


async def test_a_cut_inside_a_question_after_text_is_asked_again_not_lost() -> None:
    with model_server() as server:
        server.script("prober",
                      reply.cut_in_call("Let me check one thing.", "quiz", PROBE_QUIZ),
                      reply.tool("quiz", PROBE_QUIZ, say="Let me check one thing.", fragments=12))
        server.script("labeler", *[reply.text("Trees")] * 3)
        async with real_app(server) as (api, runtime, _services):
            chat_id = await api.new_chat()
            turn = await api.say(chat_id, "quiz me")
            assert turn.text() == "Let me check one thing." and turn.of("tool-call") == []
            assert turn.last[1]["kind"] == "stream_cut"
            assert "question" in turn.last[1]["message"]
            await runtime.supervisor.idle()

            again = await api.resume(chat_id)
            (call,) = again.of("tool-call")
            assert call["name"] == "quiz" and again.last[1]["pending"] == [call["tool_call_id"]]
            chat = await api.chat(chat_id)
            texts = [p for m in chat["messages"] for p in m["parts"] if p["type"] == "text"]
            assert [p["text"] for p in texts] == ["quiz me", "Let me check one thing."]
            assert [p["tool_call_id"] for p in chat["pending"]] == [call["tool_call_id"]]


async def test_a_cut_inside_a_question_before_any_text_is_retried_by_itself() -> None:
    with model_server() as server:
        server.script("prober", reply.cut_in_call("", "quiz", PROBE_QUIZ),
                      reply.tool("quiz", PROBE_QUIZ, fragments=20))
        server.script("labeler", *[reply.text("Trees")] * 3)
        async with real_app(server) as (api, _runtime, _services):
            chat_id = await api.new_chat()
            turn = await api.say(chat_id, "quiz me")
            (call,) = turn.of("tool-call")
            assert call["name"] == "quiz" and turn.last[0] == "finish"
            assert len(server.chat_requests("prober")) == 2


async def test_failures_say_where_and_why_and_keep_the_reason_after_a_reload() -> None:
    with model_server() as server:
        server.script("prober",
                      reply.fail(500, "model failed to load: out of memory"),
                      reply.fail(500, "model failed to load: out of memory"),
                      reply.fail(500, "model failed to load: out of memory"),
                      reply.fail(500, "model failed to load: out of memory"),
                      reply.fail(429, "too many requests", retry_after=0.3),
                      reply.text("Hello at last."))
        server.script("labeler", *[reply.text("Hello")] * 3)
        async with real_app(server) as (api, _runtime, _services):
            chat_id = await api.new_chat()
            turn = await api.say(chat_id, "hi")
            error = turn.last[1]
            assert turn.last[0] == "error" and error["kind"] == "server"
            assert error["message"].startswith("Your server at 127.0.0.1:")
            assert "model failed to load: out of memory" in error["message"]
            assert "Nothing answered" not in error["message"] and "openai" not in error["message"]
            chat = await api.chat(chat_id)
            assert chat["failure"] == error and roles_of(chat) == [("user", None)]

            started = time.monotonic()
            again = await api.resume(chat_id)  # the 429 is waited out (Retry-After), then ok
            assert again.text() == "Hello at last." and time.monotonic() - started >= 0.3
            chat = await api.chat(chat_id)
            assert chat["failure"] is None
            assert chat["messages"][0]["parts"] == [{"type": "text", "text": "hi"}]


async def test_a_cold_local_model_is_waited_for_and_a_stuck_one_times_out() -> None:
    with model_server() as server:
        server.script("prober", reply.slow(reply.text("Loaded, hello."), 1.5),
                      reply.slow(reply.text("too late"), 3.0))
        server.script("labeler", *[reply.text("Hello")] * 3)
        async with real_app(server, timeouts=Timeouts(local_s=2.5)) as (api, _runtime, _services):
            chat_id = await api.new_chat()
            assert (await api.say(chat_id, "hi")).text() == "Loaded, hello."
            turn = await api.say(chat_id, "and now?")
            error = turn.last[1]
            assert error["kind"] == "timeout" and "within 2.5 s" in error["message"]
            assert "Timeouts" in error["message"]
