"""STUDYHALL_SCRIPT files: validation with clear messages, and a cursor that survives restarts."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from studyhall.adapters.fakes.secrets import InMemorySecretStore
from studyhall.adapters.fakes.settings import InMemorySettingsStore
from studyhall.adapters.llm.audit import JsonlAuditLog
from studyhall.adapters.llm.litellm_model import LitellmChatModel
from studyhall.adapters.llm.script import ChatScript
from studyhall.core.contracts.models import ModelRequest, StreamedText
from studyhall.core.errors import ModelNotConfigured, ModelScriptInvalid

SCRIPT = {
    "prober": [{"text": "Hi!"}, {"tool_calls": [{"name": "quiz", "arguments": {}}]}],
    "teacher": [{"text": "Let's plan.", "tool_calls": [{"name": "plan_init", "arguments": {}}]}],
    "extractor": [{"json": {"propositions": [], "edges": []}}],
    "auditor": [{"json": {"verdicts": []}}],
    "labeler": [{"text": "Graphs"}],
}


def write(path: Path, data: Any) -> Path:
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def test_the_design_example_script_loads(tmp_path: Path) -> None:
    script = ChatScript.load(write(tmp_path / "s.json", SCRIPT), tmp_path / "cursor.json")
    assert script.roles == ["auditor", "extractor", "labeler", "prober", "teacher"]
    first = script.next("prober")
    assert first.text == "Hi!" and first.index == 0
    second = script.next("prober")
    assert second.tool_calls[0].name == "quiz" and second.tool_call_id(0) == "call_prober_1_0"


def test_a_restarted_adapter_continues_the_script(tmp_path: Path) -> None:
    path = write(tmp_path / "s.json", {"labeler": [{"text": "one"}, {"text": "two"}]})
    cursor = tmp_path / "data" / "script_cursor.json"

    async def label() -> str:
        # A fresh script + adapter per call, as after a server restart.
        model = LitellmChatModel(
            InMemorySettingsStore(),
            InMemorySecretStore(),
            JsonlAuditLog(tmp_path / "audit.jsonl"),
            script=ChatScript.load(path, cursor),
            allow_network=False,
        )
        req = ModelRequest(role="labeler", messages=({"role": "user", "content": "x"},))
        return "".join([e.text async for e in model.stream(req) if isinstance(e, StreamedText)])

    assert asyncio.run(label()) == "one"
    assert asyncio.run(label()) == "two"
    with pytest.raises(ModelNotConfigured) as info:
        asyncio.run(label())
    assert "all 2 used" in str(info.value) and str(cursor) in str(info.value)


def test_a_changed_script_starts_from_the_top(tmp_path: Path) -> None:
    path = write(tmp_path / "s.json", {"labeler": [{"text": "one"}, {"text": "two"}]})
    cursor = tmp_path / "cursor.json"
    ChatScript.load(path, cursor).next("labeler")
    write(path, {"labeler": [{"text": "fresh"}]})
    assert ChatScript.load(path, cursor).next("labeler").text == "fresh"


def test_cursor_is_written_atomically_and_readably(tmp_path: Path) -> None:
    cursor = tmp_path / "cursor.json"
    script = ChatScript.from_data(SCRIPT, cursor)
    script.next("teacher")
    data = json.loads(cursor.read_text())
    assert data["cursors"] == {"teacher": 1}
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_a_corrupt_cursor_is_a_clear_error_not_a_silent_replay(tmp_path: Path) -> None:
    cursor = write(tmp_path / "cursor.json", "{not json")
    with pytest.raises(ModelScriptInvalid) as info:
        ChatScript.from_data(SCRIPT, cursor).next("prober")
    assert "Delete it" in str(info.value)


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"prober": [', "not valid JSON"),
        ([{"text": "hi"}], "must be a JSON object"),
        ({"teacher": {"text": "hi"}}, "teacher: must be a list"),
        ({"teachr": [{"text": "hi"}]}, "unknown role 'teachr'"),
        ({"teacher": [{"txt": "hi"}]}, "teacher[0]: unknown key(s) ['txt']"),
        ({"teacher": [{}]}, "teacher[0]: an entry must be an object"),
        ({"teacher": [{"error": "boom"}]}, 'teacher[0]: "error" stands alone and is one of'),
        ({"teacher": [{"text": 3}]}, 'teacher[0]: "text" must be a string'),
        ({"teacher": [{"tool_calls": []}]}, '"tool_calls" must be a non-empty list'),
        ({"teacher": [{"tool_calls": [{"arguments": {}}]}]}, 'tool_calls[0]: "name" must be'),
        ({"teacher": [{"tool_calls": [{"name": "q", "arguments": 3}]}]}, '"arguments" must be'),
        ({"extractor": [{"json": {}, "text": "x"}]}, '"json" stands alone'),
    ],
)
def test_a_malformed_script_is_refused_with_the_place_of_the_problem(
    tmp_path: Path, content: Any, expected: str
) -> None:
    path = write(tmp_path / "s.json", content)
    with pytest.raises(ModelScriptInvalid) as info:
        ChatScript.load(path, tmp_path / "cursor.json")
    assert expected in str(info.value)
    assert str(path) in str(info.value)


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    bad = {"teacher": [{"txt": 1}, {"error": "nope"}], "nobody": []}
    with pytest.raises(ModelScriptInvalid) as info:
        ChatScript.from_data(bad, tmp_path / "c.json")
    message = str(info.value)
    assert "teacher[0]" in message and "teacher[1]" in message and "'nobody'" in message


def test_a_missing_script_file_names_the_setting(tmp_path: Path) -> None:
    with pytest.raises(ModelScriptInvalid) as info:
        ChatScript.load(tmp_path / "nope.json", tmp_path / "cursor.json")
    assert "STUDYHALL_SCRIPT" in str(info.value)


def test_a_role_without_answers_fails_with_its_name(tmp_path: Path) -> None:
    script = ChatScript.from_data({"teacher": [{"text": "x"}]}, tmp_path / "c.json")
    with pytest.raises(ModelNotConfigured) as info:
        script.next("auditor")
    assert info.value.role == "auditor" and '"auditor" list' in str(info.value)
