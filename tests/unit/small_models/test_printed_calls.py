"""Printed tool calls are read from a reply in linear time, whatever the reply holds."""

from __future__ import annotations

import json
import time

import pytest
from studyhall.core.agents.printed_calls import HeldText, find_printed_calls, hold_point

CALL = {"name": "quiz", "arguments": {"questions": [{"prompt": "2+2?"}]}}


def test_tags_fences_bare_objects_and_openai_shape_are_all_read() -> None:
    body = json.dumps(CALL)
    openai = json.dumps({"function": {"name": "quiz", "arguments": json.dumps(CALL["arguments"])}})
    for text in (f"<tool_call>{body}</tool_call>", f"```json\n{body}\n```", f"Now: {body}",
                 f"<tool_call>{openai}</tool_call>"):
        printed = find_printed_calls(text)
        assert [(c.name, c.arguments) for c in printed.calls] == [("quiz", CALL["arguments"])]
        assert "quiz" not in printed.text


def test_code_and_braces_in_teaching_text_are_not_calls() -> None:
    text = "In Python:\n```python\nd = {\"name\": 1}\n```\nA set {1, 2} is not a call."
    assert find_printed_calls(text).calls == ()
    assert find_printed_calls(text).text == text


def test_an_unclosed_tag_is_held_and_never_shown() -> None:
    held = HeldText()
    shown = held.feed("Let me check. <tool_") + held.feed('call>{"name": "quiz", "argu')
    shown += held.feed("ments\": {" + "x" * 100)
    assert shown == "Let me check. "
    assert hold_point("a python fence ```python\nx\n``` done") == len(
        "a python fence ```python\nx\n``` done")


@pytest.mark.parametrize("unit", ['{"name": "', "<tool_call>", "```json\n{", '{"name"{',
                                  '{"function": {"name": "q", "arguments": "{', "{ ", "``"])
def test_hostile_replies_take_linear_time(unit: str) -> None:
    times = []
    for size in (20_000, 80_000):
        text = unit * (size // len(unit))
        start = time.perf_counter()
        find_printed_calls(text)
        held = HeldText()
        for k in range(0, len(text), 40):
            held.feed(text[k:k + 40])
        times.append(time.perf_counter() - start)
    # 4x the text: well under 16x the time (quadratic), with room for a loaded machine.
    assert times[1] < max(0.5, times[0] * 10), times
