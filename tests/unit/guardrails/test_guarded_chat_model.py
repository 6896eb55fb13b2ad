"""GuardedChatModel: the provider never receives the learner's personal data, the learner
reads it back, text sent as written is left alone, and every call is rated for the audit."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from studyhall.adapters.llm.scripted import ScriptedChatModel
from studyhall.core.contracts.chat import Usage
from studyhall.core.contracts.models import (
    FinishEvent,
    ModelEvent,
    ModelRequest,
    StreamedText,
    ToolCallEvent,
    UsageEvent,
)
from studyhall.core.guardrails.chat_model import AS_WRITTEN, GuardedChatModel
from studyhall.core.guardrails.material import data_block

EMAIL, PHONE = "jane.doe@example.com", "+1-555-201-3344"


class Echo:
    """A provider stand-in: records what it received and answers with fixed deltas/calls."""

    def __init__(self, deltas: list[str], calls: tuple[ToolCallEvent, ...] = ()) -> None:
        self.deltas = deltas
        self.calls = calls
        self.requests: list[ModelRequest] = []

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        self.requests.append(request)
        for d in self.deltas:
            yield StreamedText(d)
        for c in self.calls:
            yield c
        yield UsageEvent(Usage())
        yield FinishEvent("stop")


async def run(model: GuardedChatModel, request: ModelRequest) -> list[ModelEvent]:
    return [e async for e in model.stream(request)]


def text_of(events: list[ModelEvent]) -> str:
    return "".join(e.text for e in events if isinstance(e, StreamedText))


def sent_json(request: ModelRequest) -> str:
    return json.dumps(request.messages, ensure_ascii=False)


def request(*messages: dict[str, Any], **kw: Any) -> ModelRequest:
    return ModelRequest(role="teacher", messages=tuple(messages), **kw)


async def test_the_provider_never_sees_pii_and_the_learner_reads_it_back() -> None:
    inner = Echo(["I'll write to <EMA", "IL_1> and call <PHONE_1", ">."])
    guarded = GuardedChatModel(inner, lambda role: True)
    events = await run(guarded, request(
        {"role": "system", "content": "You teach."},
        {"role": "user", "content": f"Mail {EMAIL} or call {PHONE}"}))
    sent = sent_json(inner.requests[0])
    assert EMAIL not in sent and PHONE not in sent and "<EMAIL_1>" in sent
    assert text_of(events) == f"I'll write to {EMAIL} and call {PHONE}."
    assert inner.requests[0].risk == "pii-scrubbed"
    assert [type(e).__name__ for e in events][-2:] == ["UsageEvent", "FinishEvent"]


async def test_tool_calls_in_history_are_scrubbed_and_new_ones_restored() -> None:
    call = ToolCallEvent(id="c1", name="ask_user_question",
                         arguments={"question": "Is <EMAIL_1> right?", "options": ["<EMAIL_1>"]})
    inner = Echo([], (call,))
    guarded = GuardedChatModel(inner, lambda role: True)
    history = {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c0", "type": "function",
         "function": {"name": "quiz", "arguments": json.dumps({"prompt": f"Email {EMAIL}?"})}}]}
    tool = {"role": "tool", "tool_call_id": "c0", "content": f'{{"answer": "{EMAIL}"}}'}
    events = await run(guarded, request({"role": "user", "content": EMAIL}, history, tool))
    assert EMAIL not in sent_json(inner.requests[0])
    restored = next(e for e in events if isinstance(e, ToolCallEvent))
    assert restored.arguments == {"question": f"Is {EMAIL} right?", "options": [EMAIL]}


async def test_text_sent_as_written_is_not_scrubbed_and_the_mark_stays_home() -> None:
    inner = Echo(["ok"])
    guarded = GuardedChatModel(inner, lambda role: True)
    await run(guarded, request({"role": "user", "content": f"Use {EMAIL}", AS_WRITTEN: True},
                               {"role": "user", "content": f"and {PHONE}"}))
    sent = inner.requests[0].messages
    assert sent[0] == {"role": "user", "content": f"Use {EMAIL}"}
    assert PHONE not in sent[1]["content"]
    assert inner.requests[0].risk == "pii-scrubbed+pii-sent"


async def test_scrubbing_off_for_the_role_sends_text_as_is_and_says_so() -> None:
    inner = Echo(["ok"])
    await run(GuardedChatModel(inner, lambda role: False),
              request({"role": "user", "content": f"Use {EMAIL}"}))
    assert inner.requests[0].messages[0]["content"] == f"Use {EMAIL}"
    assert inner.requests[0].risk == "pii-sent"


async def test_risk_names_material_and_low() -> None:
    inner = Echo(["ok"])
    guarded = GuardedChatModel(inner, lambda role: True)
    await run(guarded, request({"role": "system", "content": data_block("notes", "source")}))
    await run(guarded, request({"role": "user", "content": "What is entropy?"}))
    assert [r.risk for r in inner.requests] == ["material-included", "low"]


async def test_structured_answers_get_json_escaped_values() -> None:
    address = "12 Oak Street\nAustin, TX 78701"
    inner = ScriptedChatModel({"extractor": [{"json": {"text": "lives at <ADDRESS_1>"}}]})
    guarded = GuardedChatModel(inner, lambda role: True)
    events = await run(guarded, ModelRequest(
        role="extractor", messages=({"role": "user", "content": f"I live at {address}"},),
        response_schema={"type": "object"}))
    assert json.loads(text_of(events)) == {"text": f"lives at {address}"}
    assert address not in sent_json(inner.requests[0])
