"""What each role's model can do, over HTTP against a model server on 127.0.0.1: Settings'
rows, the tiny tool-call check, and the agents' sync lookup (issue 31)."""

from __future__ import annotations

from studyhall.core.contracts.model_capabilities import UNKNOWN

from tests.support.model_replies import text, tool
from tests.support.model_server import ANY_MODEL, model_server
from tests.support.real_models import real_app

ROLES = ("prober", "teacher")


async def test_settings_lists_each_model_and_a_lookup_never_calls_the_model() -> None:
    with model_server() as server:
        async with real_app(server, roles=ROLES) as (api, runtime, _):
            assert runtime.capabilities.for_role("teacher") == UNKNOWN  # asked in the background
            await runtime.supervisor.idle()
            r = await api.http.get("/api/settings/capabilities")
            assert r.status_code == 200, r.text
            rows = {row["model"]: row for row in r.json()["servers"]}
            assert rows["openai/teacher"]["roles"] == ["teacher"]
            assert rows["openai/teacher"]["api_base"] == server.api_base
            assert rows["openai/teacher"]["tools"] is None  # a generic server does not say
            assert server.chat_requests() == []  # no model call for a look


async def test_checking_asks_each_model_for_one_tool_call() -> None:
    with model_server() as server:
        server.script("prober", text("I would ping, but here is text."))
        server.script("teacher", tool("ping", {}))
        server.script(ANY_MODEL, *[tool("ping", {}) for _ in range(20)])
        async with real_app(server, roles=ROLES) as (api, runtime, _):
            r = await api.http.post("/api/settings/capabilities")
            assert r.status_code == 200, r.text
            rows = {row["model"]: row for row in r.json()["servers"]}
            assert rows["openai/teacher"]["tools"] is True
            assert rows["openai/prober"]["tools"] is False
            assert "can't call tools" in rows["openai/prober"]["note"]
            calls = server.chat_requests("teacher")
            assert len(calls) == 1 and calls[0].body["tool_choice"] == "required"
            # The agents' lookup answers from what Settings learned, at once.
            assert runtime.capabilities.for_role("prober").tools is False
            assert runtime.capabilities.for_role("teacher").tools is True
