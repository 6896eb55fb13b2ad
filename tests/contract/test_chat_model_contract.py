"""The ChatModel contract, held by every implementation of the port.

Four subjects answer the same script entries:
- ``FunctionChatModel`` (``tests.support``): the one fake the tests use, read via ``from_script``;
- ``ScriptedChatModel``: the in-process scripted model (no litellm import);
- ``LitellmChatModel`` + ``ChatScript``: the production adapter driven through litellm's offline
  ``mock_response`` path (what ``STUDYHALL_SCRIPT`` runs);
- ``LitellmChatModel`` with a provider-shaped stream: text in small deltas, tool calls split
  into an id/name fragment and many argument fragments, usage in a final chunk, and errors
  raised as litellm's exception classes — the shapes real providers send through litellm.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from studyhall.adapters.fakes.secrets import InMemorySecretStore
from studyhall.adapters.fakes.settings import InMemorySettingsStore
from studyhall.adapters.llm.audit import JsonlAuditLog
from studyhall.adapters.llm.litellm_errors import CallTarget
from studyhall.adapters.llm.litellm_model import LitellmChatModel, load_litellm
from studyhall.adapters.llm.script import ChatScript, ScriptEntry, mock_error, parse_script
from studyhall.adapters.llm.scripted import ScriptedChatModel
from studyhall.core.contracts.models import (
    FinishEvent,
    ModelEvent,
    ModelRequest,
    StreamedText,
    ToolCallEvent,
    ToolSpec,
    UsageEvent,
)
from studyhall.core.contracts.settings import MODEL_ROLES, RoleModel, Settings
from studyhall.core.errors import (
    ModelAuthError,
    ModelBadRequest,
    ModelContextTooLong,
    ModelError,
    ModelNotConfigured,
    ModelProviderDown,
    ModelRateLimited,
    ModelTimeout,
)
from studyhall.core.ports.models import ChatModel

from tests.support.chat_script import from_script

QUIZ = {
    "questions": [{"prompt": "2+2?", "choices": ["3", "4"], "correct": [1], "explanation": "sum"}]
}
TOOLS = (ToolSpec("quiz", "Ask a quiz", {"type": "object"}), ToolSpec("plan_init", "Plan", {}))


def request(role: str = "teacher", text: str = "hello", **kw: Any) -> ModelRequest:
    return ModelRequest(role=role, messages=({"role": "user", "content": text},), **kw)  # type: ignore[arg-type]


async def collect(model: ChatModel, req: ModelRequest) -> list[ModelEvent]:
    return [event async for event in model.stream(req)]


def text_of(events: list[ModelEvent]) -> str:
    return "".join(e.text for e in events if isinstance(e, StreamedText))


async def _no_sleep(_: float) -> None:
    return None


class ChatModelContract:
    """Subclasses provide ``make(script) -> ChatModel`` (a fresh model answering ``script``)."""

    make: Callable[[dict[str, Any]], ChatModel]

    @pytest.fixture(autouse=True)
    def _factory(self, tmp_path: Path) -> None:
        self.tmp = tmp_path

    async def test_text_streams_in_deltas_then_usage_then_finish(self) -> None:
        text = "The derivative measures how fast a quantity changes."
        events = await collect(self.make({"teacher": [{"text": text}]}), request())
        deltas = [e for e in events if isinstance(e, StreamedText)]
        assert len(deltas) > 1, "text must stream in pieces, not arrive in one block"
        assert text_of(events) == text
        assert isinstance(events[-1], FinishEvent) and events[-1].reason == "stop"
        assert isinstance(events[-2], UsageEvent)
        assert sum(isinstance(e, UsageEvent) for e in events) == 1

    async def test_tool_calls_arrive_complete_with_parsed_arguments(self) -> None:
        entry = {
            "text": "Let's check.",
            "tool_calls": [
                {"name": "quiz", "arguments": QUIZ},
                {"name": "plan_init", "arguments": {"title": "Limits", "mermaid": "graph TD\n a"}},
            ],
        }
        events = await collect(self.make({"teacher": [entry]}), request(tools=TOOLS))
        calls = [e for e in events if isinstance(e, ToolCallEvent)]
        assert [c.name for c in calls] == ["quiz", "plan_init"]
        assert calls[0].arguments == QUIZ
        assert calls[1].arguments == {"title": "Limits", "mermaid": "graph TD\n a"}
        assert all(c.id for c in calls) and len({c.id for c in calls}) == 2
        assert text_of(events) == "Let's check."
        # tool calls come after the text, before usage and finish
        kinds = [e.type for e in events]
        assert kinds.index("tool-call") > max(i for i, k in enumerate(kinds) if k == "text-delta")
        assert kinds[-2:] == ["usage", "finish"]
        assert isinstance(events[-1], FinishEvent) and events[-1].reason == "tool_calls"

    async def test_unparseable_arguments_keep_their_raw_text(self) -> None:
        entry = {"tool_calls": [{"name": "quiz", "arguments": '{"questions": [ oops'}]}
        events = await collect(self.make({"teacher": [entry]}), request(tools=TOOLS))
        (call,) = [e for e in events if isinstance(e, ToolCallEvent)]
        assert call.arguments is None
        assert call.raw == '{"questions": [ oops'

    async def test_structured_answer_streams_as_json_text(self) -> None:
        answer = {"propositions": [{"key": "p1", "text": "x", "evidence": []}], "edges": []}
        schema = {"title": "extraction", "type": "object"}
        model = self.make({"extractor": [{"json": answer}]})
        events = await collect(model, request("extractor", response_schema=schema))
        assert json.loads(text_of(events)) == answer

    async def test_each_role_answers_from_its_own_list_in_order(self) -> None:
        model = self.make(
            {"prober": [{"text": "p one"}, {"text": "p two"}], "labeler": [{"text": "Graphs"}]}
        )
        assert text_of(await collect(model, request("prober"))) == "p one"
        assert text_of(await collect(model, request("labeler"))) == "Graphs"
        assert text_of(await collect(model, request("prober"))) == "p two"

    async def test_exhausted_and_missing_roles_fail_clearly(self) -> None:
        model = self.make({"prober": [{"text": "only one"}]})
        await collect(model, request("prober"))
        with pytest.raises(ModelNotConfigured) as exhausted:
            await collect(model, request("prober"))
        assert exhausted.value.role == "prober" and "prober" in str(exhausted.value)
        with pytest.raises(ModelNotConfigured) as missing:
            await collect(model, request("auditor"))
        assert missing.value.role == "auditor" and "auditor" in str(missing.value)

    @pytest.mark.parametrize(
        ("kind", "error"),
        [
            ("auth", ModelAuthError),
            ("rate_limit", ModelRateLimited),
            ("timeout", ModelTimeout),
            ("server", ModelProviderDown),
            ("context_too_long", ModelContextTooLong),
            ("bad_request", ModelBadRequest),
        ],
    )
    async def test_errors_are_typed_and_tell_the_user_what_to_do(
        self, kind: str, error: type[ModelError]
    ) -> None:
        # Enough failures to outlast any retry budget: the error must surface, typed.
        model = self.make({"teacher": [{"error": kind}] * 3})
        with pytest.raises(error) as info:
            await collect(model, request("teacher"))
        assert info.value.role == "teacher"
        assert info.value.kind == kind
        message = str(info.value)
        assert "teacher" in message
        assert "Settings → " in message or "try again" in message.lower()


class TestFunctionChatModel(ChatModelContract):
    def make(self, script: dict[str, Any]) -> ChatModel:
        return from_script(script)


class TestScriptedFake(ChatModelContract):
    def make(self, script: dict[str, Any]) -> ChatModel:
        return ScriptedChatModel(script)


def _settings() -> InMemorySettingsStore:
    return InMemorySettingsStore(Settings())


class TestLitellmThroughMockResponse(ChatModelContract):
    def make(self, script: dict[str, Any]) -> ChatModel:
        return LitellmChatModel(
            _settings(),
            InMemorySecretStore(),
            JsonlAuditLog(self.tmp / "audit.jsonl"),
            script=ChatScript.from_data(script, self.tmp / "cursor.json"),
            allow_network=False,
            max_attempts=3,
            sleep=_no_sleep,
        )


def provider_chunks(litellm: Any, entry: ScriptEntry) -> list[Any]:
    """The chunks an OpenAI-compatible provider streams for ``entry``, as litellm objects."""
    chunks: list[dict[str, Any]] = []
    text = entry.answer_text or ""
    for i in range(0, len(text), 2):
        chunks.append({"choices": [{"index": 0, "delta": {"content": text[i : i + 2]}}]})
    for k, call in enumerate(entry.tool_calls):
        args = call.arguments if isinstance(call.arguments, str) else json.dumps(call.arguments)
        head = {"index": k, "id": entry.tool_call_id(k), "type": "function"}
        head["function"] = {"name": call.name, "arguments": ""}
        chunks.append({"choices": [{"index": 0, "delta": {"tool_calls": [head]}}]})
        for j in range(0, len(args), 3):
            frag = {"index": k, "function": {"arguments": args[j : j + 3]}}
            chunks.append({"choices": [{"index": 0, "delta": {"tool_calls": [frag]}}]})
    reason = "tool_calls" if entry.tool_calls else "stop"
    chunks.append({"choices": [{"index": 0, "delta": {}, "finish_reason": reason}]})
    usage = {"prompt_tokens": 21, "completion_tokens": 13, "total_tokens": 34}
    chunks.append({"choices": [], "usage": usage})
    return [litellm.ModelResponseStream(**c) for c in chunks]


class FakeProvider:
    """Stands in for ``litellm.acompletion``; roles are told apart by their model id."""

    def __init__(self, litellm: Any, script: dict[str, Any]) -> None:
        self.litellm = litellm
        self.queues = {r: list(e) for r, e in parse_script(script, "fake").items()}
        self.calls: list[dict[str, Any]] = []

    async def __call__(self, **kwargs: Any) -> Any:
        self.calls.append(kwargs)
        role = kwargs["model"].split("/", 1)[1].removeprefix("model-")
        if not self.queues.get(role):
            raise AssertionError(f"the test provider has no answer left for {role}")
        entry = self.queues[role].pop(0)
        if entry.error is not None:
            target = CallTarget(role=role, model=kwargs["model"], provider="openai")
            raise mock_error(self.litellm, entry.error, target)
        chunks = provider_chunks(self.litellm, entry)

        async def stream() -> Any:
            for chunk in chunks:
                yield chunk

        return stream()


class TestLitellmWithProviderShapedStream(ChatModelContract):
    @pytest.fixture(autouse=True)
    async def _litellm(self) -> None:
        self.litellm = await load_litellm()

    def make(self, script: dict[str, Any]) -> ChatModel:
        settings = Settings(
            models={r: RoleModel(model=f"openai/model-{r}") for r in MODEL_ROLES if r in script}
        )
        fake = FakeProvider(self.litellm, script)
        return LitellmChatModel(
            InMemorySettingsStore(settings),
            InMemorySecretStore({"openai": "sk-test-0123456789"}),
            JsonlAuditLog(self.tmp / "audit.jsonl"),
            max_attempts=3,
            sleep=_no_sleep,
            acompletion=fake,
        )

    async def test_exhausted_and_missing_roles_fail_clearly(self) -> None:
        pytest.skip("a real provider has no script to exhaust")
