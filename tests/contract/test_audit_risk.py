"""Each model call's audit row records the guardrails' risk rating (and still no content)."""

from __future__ import annotations

from pathlib import Path

from studyhall.adapters.fakes.secrets import InMemorySecretStore
from studyhall.adapters.fakes.settings import InMemorySettingsStore
from studyhall.adapters.llm.audit import JsonlAuditLog
from studyhall.adapters.llm.litellm_model import LitellmChatModel
from studyhall.adapters.llm.script import ChatScript
from studyhall.core.contracts.models import ModelRequest, StreamedText
from studyhall.core.guardrails.chat_model import GuardedChatModel


async def test_the_audit_row_records_risk_and_never_the_scrubbed_value(tmp_path: Path) -> None:
    audit = JsonlAuditLog(tmp_path / "audit.jsonl")
    script = {"teacher": [{"text": "Sure, <EMAIL_1>."}, {"text": "Hi"}]}
    inner = LitellmChatModel(InMemorySettingsStore(), InMemorySecretStore(), audit,
                             script=ChatScript.from_data(script, tmp_path / "cursor.json"),
                             allow_network=False)
    model = GuardedChatModel(inner, lambda role: True)
    first = ModelRequest(role="teacher", messages=(
        {"role": "user", "content": "Write to jane.doe@example.com"},))
    text = "".join([e.text async for e in model.stream(first) if isinstance(e, StreamedText)])
    assert text == "Sure, jane.doe@example.com."
    plain = ModelRequest(role="teacher", messages=({"role": "user", "content": "hello"},))
    _ = [e async for e in model.stream(plain)]
    rows = audit.rows()
    assert [r["risk"] for r in rows] == ["pii-scrubbed", "low"]
    assert "jane.doe" not in audit.path.read_text()


async def test_a_call_that_bypasses_the_guardrails_is_recorded_as_unrated(tmp_path: Path) -> None:
    audit = JsonlAuditLog(tmp_path / "audit.jsonl")
    inner = LitellmChatModel(InMemorySettingsStore(), InMemorySecretStore(), audit,
                             script=ChatScript.from_data({"teacher": [{"text": "x"}]},
                                                         tmp_path / "cursor.json"),
                             allow_network=False)
    _ = [e async for e in inner.stream(ModelRequest(role="teacher", messages=(
        {"role": "user", "content": "hi"},)))]
    assert audit.rows()[0]["risk"] is None
