"""LitellmChatModel beyond the shared contract: retries, keys, per-role options, refusals, cost."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from studyhall.adapters.fakes.secrets import InMemorySecretStore
from studyhall.adapters.fakes.settings import InMemorySettingsStore
from studyhall.adapters.llm.audit import JsonlAuditLog
from studyhall.adapters.llm.litellm_model import LitellmChatModel, load_litellm
from studyhall.adapters.llm.script import ChatScript
from studyhall.core.contracts.models import ModelRequest, StreamedText, ToolSpec, UsageEvent
from studyhall.core.contracts.settings import RoleModel, Settings
from studyhall.core.errors import (
    ModelAuthError,
    ModelNetworkDisabled,
    ModelNotConfigured,
    ModelProviderDown,
    ModelRateLimited,
)

KEY = "sk-ant-SECRET-0123456789abcdef"


def req(role: str = "teacher", **kw: Any) -> ModelRequest:
    return ModelRequest(role=role, messages=({"role": "user", "content": "hi"},), **kw)  # type: ignore[arg-type]


async def drain(model: LitellmChatModel, request: ModelRequest) -> list[Any]:
    return [e async for e in model.stream(request)]


class Sleeps:
    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, delay: float) -> None:
        self.delays.append(delay)


@pytest.fixture
async def litellm() -> Any:
    return await load_litellm()


def settings(**roles: RoleModel) -> InMemorySettingsStore:
    base = Settings()
    return InMemorySettingsStore(Settings(models={**base.models, **roles}))


def scripted(tmp: Path, script: dict[str, Any], sleep: Sleeps, **kw: Any) -> LitellmChatModel:
    return LitellmChatModel(
        settings(),
        InMemorySecretStore(),
        JsonlAuditLog(tmp / "audit.jsonl"),
        script=ChatScript.from_data(script, tmp / "cursor.json"),
        allow_network=False,
        sleep=sleep,
        jitter=lambda: 1.0,
        **kw,
    )


class Recorder:
    """A stand-in for ``litellm.acompletion``: records kwargs, then streams or raises."""

    def __init__(self, litellm: Any, *, fail: list[BaseException] | None = None) -> None:
        self.litellm = litellm
        self.calls: list[dict[str, Any]] = []
        self.fail = list(fail or [])
        self.fail_after_first_chunk: BaseException | None = None

    async def __call__(self, **kwargs: Any) -> Any:
        self.calls.append(kwargs)
        if self.fail:
            raise self.fail.pop(0)
        chunks = [
            self.litellm.ModelResponseStream(choices=[{"index": 0, "delta": {"content": "Hi"}}]),
            self.litellm.ModelResponseStream(
                choices=[{"index": 0, "delta": {}, "finish_reason": "stop"}]
            ),
        ]
        late = self.fail_after_first_chunk

        async def stream() -> Any:
            yield chunks[0]
            if late is not None:
                raise late
            yield chunks[1]

        return stream()


# --- retries ---------------------------------------------------------------------------------


async def test_rate_limit_is_retried_then_succeeds(tmp_path: Path) -> None:
    sleeps = Sleeps()
    model = scripted(
        tmp_path, {"teacher": [{"error": "rate_limit"}, {"text": "Back again."}]}, sleeps
    )
    events = await drain(model, req())
    assert "".join(e.text for e in events if isinstance(e, StreamedText)) == "Back again."
    assert len(sleeps.delays) == 1 and sleeps.delays[0] == pytest.approx(1.0)
    (row,) = JsonlAuditLog(tmp_path / "audit.jsonl").rows()
    assert row["outcome"] == "ok" and row["attempts"] == 2


async def test_rate_limit_is_retried_with_growing_backoff_then_reported(tmp_path: Path) -> None:
    sleeps = Sleeps()
    model = scripted(tmp_path, {"teacher": [{"error": "rate_limit"}] * 5}, sleeps, max_attempts=3)
    with pytest.raises(ModelRateLimited) as info:
        await drain(model, req())
    assert info.value.attempts == 3
    assert "after 3 tries" in str(info.value) and "teacher" in str(info.value)
    assert sleeps.delays == [pytest.approx(1.0), pytest.approx(2.0)]
    (row,) = JsonlAuditLog(tmp_path / "audit.jsonl").rows()
    assert row["outcome"] == "rate_limit" and row["attempts"] == 3


async def test_server_errors_are_retried_but_auth_errors_are_not(tmp_path: Path) -> None:
    sleeps = Sleeps()
    script = {"teacher": [{"error": "server"}, {"text": "ok"}], "prober": [{"error": "auth"}] * 2}
    model = scripted(tmp_path, script, sleeps)
    await drain(model, req("teacher"))
    with pytest.raises(ModelAuthError):
        await drain(model, req("prober"))
    assert len(sleeps.delays) == 1  # only the server error waited
    assert ChatScript.from_data(script, tmp_path / "cursor.json").used("prober") == 1


async def test_jitter_spreads_the_backoff_and_retry_after_is_honoured(litellm: Any) -> None:
    model = LitellmChatModel(
        settings(), InMemorySecretStore(), None, jitter=lambda: 0.0, backoff_base=2.0
    )
    assert model.backoff(1) == pytest.approx(1.0)  # half the base at the lowest jitter
    assert model.backoff(3) == pytest.approx(4.0)
    limited = litellm.RateLimitError(message="slow", llm_provider="openai", model="m")
    limited.litellm_response_headers = {"retry-after": "7"}
    assert model.backoff(1, limited) == pytest.approx(7.0)


async def test_no_retry_once_text_has_been_yielded(litellm: Any) -> None:
    fake = Recorder(litellm)
    fake.fail_after_first_chunk = litellm.RateLimitError(
        message="mid-stream", llm_provider="openai", model="openai/gpt-4.1-mini"
    )
    sleeps = Sleeps()
    model = LitellmChatModel(
        settings(teacher=RoleModel(model="openai/gpt-4.1-mini")),
        InMemorySecretStore({"openai": "sk-test-0123456789"}),
        None,
        sleep=sleeps,
        acompletion=fake,
    )
    seen: list[Any] = []
    with pytest.raises(ModelRateLimited):
        async for event in model.stream(req()):
            seen.append(event)
    assert [e.text for e in seen] == ["Hi"]
    assert len(fake.calls) == 1 and sleeps.delays == []


# --- keys and messages -----------------------------------------------------------------------


async def test_refused_key_names_the_role_and_what_to_do_and_never_the_key(
    litellm: Any, tmp_path: Path
) -> None:
    refused = litellm.AuthenticationError(
        message=f"Incorrect API key provided: {KEY}. Bearer {KEY}",
        llm_provider="anthropic",
        model="anthropic/claude-sonnet-4-5",
    )
    fake = Recorder(litellm, fail=[refused])
    audit = JsonlAuditLog(tmp_path / "audit.jsonl")
    model = LitellmChatModel(
        settings(), InMemorySecretStore({"anthropic": KEY}), audit, acompletion=fake
    )
    with pytest.raises(ModelAuthError) as info:
        await drain(model, req("teacher"))
    assert str(info.value) == (
        "The teacher's key for anthropic was refused (401). Open Settings → Where your models run "
        "to replace it."
    )
    assert info.value.role == "teacher" and info.value.provider == "anthropic"
    assert fake.calls[0]["api_key"] == KEY  # the key went to the provider...
    assert KEY not in (tmp_path / "audit.jsonl").read_text()  # ...and nowhere else
    assert len(fake.calls) == 1


async def test_bad_request_detail_is_shown_with_keys_redacted(litellm: Any) -> None:
    bad = litellm.BadRequestError(
        message=f"invalid tool schema (key {KEY})", llm_provider="anthropic", model="m"
    )
    model = LitellmChatModel(
        settings(),
        InMemorySecretStore({"anthropic": KEY}),
        None,
        acompletion=Recorder(litellm, fail=[bad]),
    )
    with pytest.raises(Exception) as info:
        await drain(model, req())
    assert "invalid tool schema" in str(info.value) and KEY not in str(info.value)


async def test_missing_key_asks_the_learner_to_add_one(
    litellm: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    fake = Recorder(litellm)
    model = LitellmChatModel(settings(), InMemorySecretStore(), None, acompletion=fake)
    with pytest.raises(ModelNotConfigured) as info:
        await drain(model, req("prober"))
    assert "No key for anthropic" in str(info.value) and "prober" in str(info.value)
    assert fake.calls == []


async def test_testing_mode_refuses_real_calls_before_touching_the_network(
    tmp_path: Path,
) -> None:
    audit = JsonlAuditLog(tmp_path / "audit.jsonl")
    # No acompletion seam: this is the real litellm path, stopped before the call.
    model = LitellmChatModel(
        settings(), InMemorySecretStore({"anthropic": KEY}), audit, allow_network=False
    )
    with pytest.raises(ModelNetworkDisabled) as info:
        await drain(model, req("teacher"))
    assert "STUDYHALL_SCRIPT" in str(info.value) and info.value.role == "teacher"
    (row,) = audit.rows()
    assert row["outcome"] == "network_disabled" and row["attempts"] == 0


# --- per-role options ------------------------------------------------------------------------


async def test_model_effort_key_and_schema_follow_each_roles_settings(litellm: Any) -> None:
    fake = Recorder(litellm)
    store = settings(
        teacher=RoleModel(model="anthropic/claude-sonnet-4-5", effort="high"),
        labeler=RoleModel(model="openai/gpt-4.1-mini", effort="minimal"),
        extractor=RoleModel(model="openai/gpt-4.1-mini"),
    )
    keys = InMemorySecretStore({"anthropic": "sk-ant-aaaaaaaaaaaa", "openai": "sk-oai-bbbbbbbbbbb"})
    model = LitellmChatModel(store, keys, None, acompletion=fake)
    tools = (ToolSpec("quiz", "Ask", {"type": "object"}),)
    await drain(model, req("teacher", tools=tools))
    await drain(model, req("labeler"))
    await drain(model, req("extractor", response_schema={"title": "extraction", "type": "object"}))
    teacher, labeler, extractor = fake.calls
    assert teacher["model"] == "anthropic/claude-sonnet-4-5"
    assert teacher["reasoning_effort"] == "high"  # a reasoning model: effort is sent
    assert teacher["api_key"] == "sk-ant-aaaaaaaaaaaa"
    assert teacher["tools"][0]["function"]["name"] == "quiz"
    assert teacher["stream"] is True and teacher["stream_options"] == {"include_usage": True}
    assert "reasoning_effort" not in labeler  # gpt-4.1-mini does not reason: effort dropped
    assert labeler["api_key"] == "sk-oai-bbbbbbbbbbb"
    assert extractor["response_format"]["type"] == "json_schema"
    assert extractor["response_format"]["json_schema"]["name"] == "extraction"


async def test_local_servers_get_their_api_base_and_no_provider_key(litellm: Any) -> None:
    fake = Recorder(litellm)
    store = settings(
        teacher=RoleModel(model="ollama/llama3.2", effort="low", api_base="http://127.0.0.1:11434"),
        prober=RoleModel(model="openai/qwen2.5-7b", api_base="http://127.0.0.1:1234/v1"),
    )
    keys = InMemorySecretStore({"openai": "sk-real-openai-key-123"})
    model = LitellmChatModel(store, keys, None, acompletion=fake)
    await drain(model, req("teacher", response_schema={"type": "object"}))
    await drain(model, req("prober"))
    ollama, lm_studio = fake.calls
    assert ollama["api_base"] == "http://127.0.0.1:11434" and "api_key" not in ollama
    assert "reasoning_effort" not in ollama
    assert ollama["response_format"] == {"type": "json_object"}
    # The learner's OpenAI key must never be sent to a server they typed in.
    assert lm_studio["api_base"] == "http://127.0.0.1:1234/v1"
    assert lm_studio["api_key"] != "sk-real-openai-key-123"


async def test_unreachable_local_server_says_to_start_it(litellm: Any) -> None:
    down = litellm.APIConnectionError(
        message="Connection refused", llm_provider="ollama", model="m"
    )
    fake = Recorder(litellm, fail=[down, down])
    store = settings(teacher=RoleModel(model="ollama/llama3.2", api_base="http://127.0.0.1:11434"))
    model = LitellmChatModel(
        store, InMemorySecretStore(), None, max_attempts=2, sleep=Sleeps(), acompletion=fake
    )
    with pytest.raises(ModelProviderDown) as info:
        await drain(model, req())
    assert "http://127.0.0.1:11434" in str(info.value) and "Start your local model server" in str(
        info.value
    )


# --- usage and cost --------------------------------------------------------------------------


async def test_usage_has_tokens_and_cost_for_a_priced_model(tmp_path: Path) -> None:
    model = scripted(tmp_path, {"teacher": [{"text": "Hello there."}]}, Sleeps())
    (usage,) = [e for e in await drain(model, req()) if isinstance(e, UsageEvent)]
    assert usage.usage.input_tokens and usage.usage.output_tokens
    assert usage.usage.cost_usd is not None and usage.usage.cost_usd > 0


async def test_cost_of_an_unpriced_model_stays_unknown_not_zero(tmp_path: Path) -> None:
    store = settings(
        teacher=RoleModel(model="openai/my-local-model", api_base="http://127.0.0.1:1")
    )
    model = LitellmChatModel(
        store,
        InMemorySecretStore(),
        JsonlAuditLog(tmp_path / "audit.jsonl"),
        script=ChatScript.from_data({"teacher": [{"text": "hi"}]}, tmp_path / "c.json"),
    )
    (usage,) = [e for e in await drain(model, req()) if isinstance(e, UsageEvent)]
    assert usage.usage.output_tokens is not None
    assert usage.usage.cost_usd is None
    row = json.loads((tmp_path / "audit.jsonl").read_text().splitlines()[0])
    assert row["cost_usd"] is None


def test_importing_the_adapter_does_not_import_litellm() -> None:
    code = (
        "import sys, studyhall.adapters.llm.litellm_model, studyhall.adapters.llm.scripted;"
        "assert 'litellm' not in sys.modules, 'litellm imported at module level'"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


async def test_a_model_id_without_a_known_provider_asks_for_a_proper_id(
    litellm: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = Recorder(litellm)
    store = settings(teacher=RoleModel(model="gpt-totally-made-up"))
    model = LitellmChatModel(store, InMemorySecretStore(), None, acompletion=fake)
    with pytest.raises(ModelNotConfigured) as info:
        await drain(model, req())
    assert "'gpt-totally-made-up'" in str(info.value) and "Settings → Advanced → Models" in str(info.value)
    assert fake.calls == []
    assert "Provider List" not in capsys.readouterr().out  # litellm's banner stays quiet
