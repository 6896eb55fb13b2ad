"""Issue 31 item 5 through the real litellm adapter: every role's answer is capped
(``max_tokens`` from Settings, the request's own cap first, thinking room for a reasoning
model), and a reply cut at the cap ends with finish reason "length" — played offline by
litellm's ``mock_response``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from studyhall.adapters.fakes.secrets import InMemorySecretStore
from studyhall.adapters.fakes.settings import InMemorySettingsStore
from studyhall.adapters.llm.litellm_model import LitellmChatModel, load_litellm
from studyhall.adapters.llm.script import ChatScript
from studyhall.core.contracts.models import FinishEvent, ModelRequest, StreamedText
from studyhall.core.contracts.settings import RoleModel, Settings


def _req(role: str, **kw: Any) -> ModelRequest:
    return ModelRequest(role=role, messages=({"role": "user", "content": "hi"},), **kw)  # type: ignore[arg-type]


class _Recorder:
    def __init__(self, litellm: Any) -> None:
        self.litellm = litellm
        self.calls: list[dict[str, Any]] = []

    async def __call__(self, **kwargs: Any) -> Any:
        self.calls.append(kwargs)
        chunk = self.litellm.ModelResponseStream(
            choices=[{"index": 0, "delta": {"content": "ok"}, "finish_reason": "stop"}])

        async def stream() -> Any:
            yield chunk

        return stream()


async def test_each_role_is_capped_by_settings_and_a_request_cap_wins() -> None:
    litellm = await load_litellm()
    fake = _Recorder(litellm)
    base = Settings()
    store = InMemorySettingsStore(Settings(
        models={**base.models,
                "prober": RoleModel(model="openai/smollm2", api_base="http://127.0.0.1:8080/v1"),
                "teacher": RoleModel(model="anthropic/claude-sonnet-4-5", effort="medium")},
        output_tokens={**base.output_tokens, "prober": 700}))
    keys = InMemorySecretStore({"anthropic": "sk-ant-aaaaaaaaaaaa", "openai": "sk-oai-bbbbbbbbbbb"})
    model = LitellmChatModel(store, keys, None, acompletion=fake)
    for request in (_req("prober"), _req("prober", max_tokens=64), _req("teacher"),
                    _req("labeler")):
        [e async for e in model.stream(request)]
    prober, capped, teacher, labeler = fake.calls
    assert prober["max_tokens"] == 700
    assert capped["max_tokens"] == 64
    # Thinking happens inside max_tokens: the answer keeps its 3,000 beside a medium budget.
    assert teacher["max_tokens"] == 3_000 + 2_048 and teacher["reasoning_effort"] == "medium"
    assert labeler["max_tokens"] == 60


async def test_a_reply_cut_at_max_tokens_finishes_with_length_offline(tmp_path: Path) -> None:
    script = ChatScript.from_data(
        {"extractor": [{"text": '{"propositions": [{"key": "k1", "text": "BFS visits',
                        "finish": "length"}]}, tmp_path / "cursor.json")
    model = LitellmChatModel(InMemorySettingsStore(Settings()), InMemorySecretStore(), None,
                             script=script, allow_network=False)
    events = [e async for e in model.stream(_req("extractor", response_schema={"type": "object"}))]
    text = "".join(e.text for e in events if isinstance(e, StreamedText))
    assert text.endswith("BFS visits")
    assert events[-1] == FinishEvent("length")
