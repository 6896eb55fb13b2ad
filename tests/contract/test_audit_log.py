"""audit.jsonl: one row per model call, the agreed fields, no content and no keys."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from studyhall.adapters.fakes.secrets import InMemorySecretStore
from studyhall.adapters.fakes.settings import InMemorySettingsStore
from studyhall.adapters.llm.audit import AuditRow, JsonlAuditLog, prompt_fingerprint
from studyhall.adapters.llm.litellm_model import LitellmChatModel
from studyhall.adapters.llm.script import ChatScript
from studyhall.core.contracts.models import ModelRequest
from studyhall.core.errors import ModelAuthError

SECRET_TEXT = "my private diary entry about eigenvalues"
KEY = "sk-ant-SECRET-abcdef0123456789"
FIELDS = {
    "time",
    "role",
    "model",
    "provider",
    "prompt_sha256",
    "messages",
    "tools",
    "input_tokens",
    "output_tokens",
    "cost_usd",
    "latency_ms",
    "outcome",
    "attempts",
    "scripted",
    "risk",  # the guardrails' rating (tests/contract/test_audit_risk.py)
}


def model_for(tmp: Path, script: dict[str, Any]) -> tuple[LitellmChatModel, JsonlAuditLog]:
    audit = JsonlAuditLog(tmp / "audit.jsonl")
    model = LitellmChatModel(
        InMemorySettingsStore(),
        InMemorySecretStore({"anthropic": KEY}),
        audit,
        script=ChatScript.from_data(script, tmp / "cursor.json"),
        allow_network=False,
    )
    return model, audit


MESSAGES = (
    {"role": "system", "content": "You are a teacher."},
    {"role": "user", "content": SECRET_TEXT},
)


async def test_one_row_per_call_with_the_agreed_fields_and_no_content(tmp_path: Path) -> None:
    model, audit = model_for(
        tmp_path,
        {"teacher": [{"text": "Sure."}, {"error": "auth"}], "labeler": [{"text": SECRET_TEXT}]},
    )
    request = ModelRequest(role="teacher", messages=MESSAGES)
    [e async for e in model.stream(request)]
    with pytest.raises(ModelAuthError):
        [e async for e in model.stream(request)]
    [e async for e in model.stream(ModelRequest(role="labeler", messages=MESSAGES))]

    ok, failed, labeler = audit.rows()
    assert set(ok) == FIELDS
    assert ok["role"] == "teacher" and ok["model"] == "anthropic/claude-sonnet-4-5"
    assert ok["provider"] == "anthropic" and ok["outcome"] == "ok" and ok["attempts"] == 1
    assert ok["messages"] == 2 and ok["scripted"] is True
    assert isinstance(ok["input_tokens"], int) and isinstance(ok["output_tokens"], int)
    assert ok["latency_ms"] >= 0 and ok["time"].endswith("+00:00")
    canonical = json.dumps(
        list(MESSAGES), sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    assert ok["prompt_sha256"] == hashlib.sha256(canonical.encode()).hexdigest()
    assert failed["outcome"] == "auth" and failed["input_tokens"] is None
    assert failed["cost_usd"] is None
    assert labeler["role"] == "labeler"

    raw = (tmp_path / "audit.jsonl").read_text()
    assert SECRET_TEXT not in raw and "eigenvalues" not in raw  # neither the prompt nor the answer
    assert KEY not in raw and "You are a teacher" not in raw


async def test_a_call_abandoned_mid_stream_is_audited_as_cancelled(tmp_path: Path) -> None:
    model, audit = model_for(tmp_path, {"teacher": [{"text": "A long answer, word by word."}]})
    stream = model.stream(ModelRequest(role="teacher", messages=MESSAGES))
    await stream.__anext__()
    await stream.aclose()  # type: ignore[attr-defined]
    (row,) = audit.rows()
    assert row["outcome"] == "cancelled"


def test_rows_are_fsynced_lines_and_a_torn_tail_is_fenced_off(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    path.write_bytes(b'{"time": "2026-01-01", "role": "tea')  # a crash mid-append
    audit = JsonlAuditLog(path)
    row = AuditRow(
        time="t",
        role="teacher",
        model="m",
        provider="p",
        prompt_sha256="h",
        messages=1,
        tools=0,
        input_tokens=None,
        output_tokens=None,
        cost_usd=None,
        latency_ms=1.0,
        outcome="ok",
        attempts=1,
    )
    audit.append(row)
    audit.append(row)
    rows = audit.rows()
    assert len(rows) == 2 and all(r["role"] == "teacher" for r in rows)
    assert path.read_bytes().endswith(b"\n")
    fresh = JsonlAuditLog(tmp_path / "logs" / "new.jsonl")
    fresh.append(row)
    assert (fresh.path.stat().st_mode & 0o777) == 0o600  # a new log is private to the user


def test_fingerprint_is_stable_and_order_sensitive() -> None:
    a = [{"role": "user", "content": "x", "name": "n"}]
    b = [{"name": "n", "content": "x", "role": "user"}]
    assert prompt_fingerprint(a) == prompt_fingerprint(b)  # key order does not matter
    y = {"role": "user", "content": "y"}
    assert prompt_fingerprint([*a, y]) != prompt_fingerprint([y, *a])  # message order does


async def test_a_consumer_stopping_at_finish_is_audited_as_ok(tmp_path: Path) -> None:
    model, audit = model_for(tmp_path, {"teacher": [{"text": "Done."}]})
    stream = model.stream(ModelRequest(role="teacher", messages=MESSAGES))
    async for event in stream:
        if event.type == "finish":
            break
    await stream.aclose()  # type: ignore[attr-defined]
    (row,) = audit.rows()
    assert row["outcome"] == "ok"


def test_the_fingerprint_and_the_row_take_text_no_codec_accepts(tmp_path):
    # A lone surrogate: what Python makes of argv bytes that are not UTF-8.
    from studyhall.adapters.llm.audit import AuditRow, JsonlAuditLog, prompt_fingerprint

    odd = [{"role": "user", "content": "caf\udcff?"}]
    assert prompt_fingerprint(odd) != prompt_fingerprint([{"role": "user", "content": "caf?"}])
    log = JsonlAuditLog(tmp_path / "audit.jsonl")
    log.append(AuditRow(time="2025-01-01T00:00:00+00:00", role="answerer", model="m\udcff",
                        provider=None, prompt_sha256=prompt_fingerprint(odd), messages=1,
                        tools=0, input_tokens=None, output_tokens=None, cost_usd=None,
                        latency_ms=1.0, outcome="ok", attempts=1))
    assert log.rows()[0]["model"] == "m\udcff"
    (tmp_path / "audit.jsonl").read_bytes().decode("utf-8")  # still valid UTF-8
