"""The composition root wires the model: STUDYHALL_SCRIPT runs with no key; tests never reach out."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from studyhall.core.contracts.models import ModelRequest, StreamedText, ToolCallEvent
from studyhall.core.errors import ModelNetworkDisabled, ModelRateLimited, ModelScriptInvalid
from studyhall.server.app import build_services
from studyhall.server.config import load_config


def hello(role: str = "prober") -> ModelRequest:
    return ModelRequest(role=role, messages=({"role": "user", "content": "hello"},))  # type: ignore[arg-type]


async def test_a_scripted_app_answers_every_role_with_no_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, _isolated_data_dir: Path
) -> None:
    script = tmp_path / "script.json"
    script.write_text(
        json.dumps(
            {
                "prober": [{"text": "Hi!"}, {"tool_calls": [{"name": "quiz", "arguments": {}}]}],
                "labeler": [{"text": "Graphs"}],
            }
        )
    )
    monkeypatch.setenv("STUDYHALL_SCRIPT", str(script))
    services = build_services(load_config())
    model = services.chat_model
    assert model is not None
    first = [e async for e in model.stream(hello())]
    assert "".join(e.text for e in first if isinstance(e, StreamedText)) == "Hi!"
    second = [e async for e in model.stream(hello())]
    assert [e.name for e in second if isinstance(e, ToolCallEvent)] == ["quiz"]

    # A restarted server (new services over the same data dir) continues the script.
    again = build_services(load_config()).chat_model
    assert again is not None
    label = [e async for e in again.stream(hello("labeler"))]
    assert "".join(e.text for e in label if isinstance(e, StreamedText)) == "Graphs"
    rows = (_isolated_data_dir / "audit.jsonl").read_text().splitlines()
    assert len(rows) == 3 and all(json.loads(r)["scripted"] for r in rows)


async def test_a_scripted_rate_limit_is_retried_then_reported_without_waiting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"teacher": [{"error": "rate_limit"}] * 4}))
    monkeypatch.setenv("STUDYHALL_SCRIPT", str(script))
    model = build_services(load_config()).chat_model
    assert model is not None
    started = time.perf_counter()
    with pytest.raises(ModelRateLimited) as info:
        [e async for e in model.stream(hello("teacher"))]
    assert info.value.attempts == 4 and "after 4 tries" in str(info.value)
    assert time.perf_counter() - started < 5  # testing mode backs off instantly


async def test_without_a_script_tests_cannot_reach_a_provider() -> None:
    services = build_services(load_config())
    assert services.chat_model is not None
    with pytest.raises(ModelNetworkDisabled):
        [e async for e in services.chat_model.stream(hello("teacher"))]


def test_a_malformed_script_stops_the_launch_with_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bad = tmp_path / "script.json"
    bad.write_text('{"teacher": [{"txt": "typo"}]}')
    monkeypatch.setenv("STUDYHALL_SCRIPT", str(bad))
    with pytest.raises(ModelScriptInvalid) as info:
        build_services(load_config())
    assert "teacher[0]" in str(info.value) and str(bad) in str(info.value)


def test_building_services_does_not_import_litellm() -> None:
    code = (
        "import sys; from studyhall.server.app import build_services;"
        "from studyhall.server.config import load_config; build_services(load_config());"
        "assert 'litellm' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
