"""Provider chunk shapes seen in the wild, assembled into whole tool calls and usage."""

from __future__ import annotations

from typing import Any

from studyhall.adapters.llm.stream_assembly import StreamAssembler, parse_arguments


def chunk(delta: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    choice: dict[str, Any] = {"index": 0, "delta": delta or {}}
    if "finish_reason" in extra:
        choice["finish_reason"] = extra.pop("finish_reason")
    return {"choices": [choice], **extra}


def call(
    index: int | None, id: str | None = None, name: str | None = None, args: Any = None
) -> dict[str, Any]:
    frag: dict[str, Any] = {"function": {}}
    if index is not None:
        frag["index"] = index
    if id:
        frag["id"] = id
    if name:
        frag["function"]["name"] = name
    if args is not None:
        frag["function"]["arguments"] = args
    return frag


def ids() -> Any:
    n = iter(range(100))
    return lambda: f"gen_{next(n)}"


def test_fragments_interleaved_across_two_calls_are_assembled_by_index() -> None:
    a = StreamAssembler(ids())
    a.feed(chunk({"tool_calls": [call(0, "c1", "quiz", '{"q'), call(1, "c2", "plan_init", "")]}))
    a.feed(chunk({"tool_calls": [call(1, args='{"title": "T"}'), call(0, args='": 1}')]}))
    first, second = a.tool_calls()
    assert (first.id, first.name, first.arguments) == ("c1", "quiz", {"q": 1})
    assert (second.id, second.name, second.arguments) == ("c2", "plan_init", {"title": "T"})


def test_a_provider_reusing_index_zero_for_every_call_still_yields_separate_calls() -> None:
    a = StreamAssembler(ids())
    a.feed(chunk({"tool_calls": [call(0, "x1", "quiz", "{}")]}))
    a.feed(chunk({"tool_calls": [call(0, "x2", "ask_user_question", '{"question": "?"}')]}))
    calls = a.tool_calls()
    assert [c.id for c in calls] == ["x1", "x2"]
    assert calls[1].arguments == {"question": "?"}


def test_missing_ids_are_generated_and_index_less_fragments_continue_the_last_call() -> None:
    a = StreamAssembler(ids())
    a.feed(chunk({"tool_calls": [call(None, name="quiz", args='{"a"')]}))
    a.feed(chunk({"tool_calls": [call(None, args=": 2}")]}))
    (only,) = a.tool_calls()
    assert only.id == "gen_0" and only.arguments == {"a": 2}


def test_arguments_that_are_not_a_json_object_keep_their_raw_text() -> None:
    assert parse_arguments("") == {}
    assert parse_arguments("  ") == {}
    assert parse_arguments("[1, 2]") is None
    assert parse_arguments('{"a": ') is None
    a = StreamAssembler(ids())
    a.feed(chunk({"tool_calls": [call(0, "c", "quiz", "[1, 2]")]}))
    (c,) = a.tool_calls()
    assert c.arguments is None and c.raw == "[1, 2]"


def test_dict_arguments_from_a_provider_are_accepted() -> None:
    a = StreamAssembler(ids())
    a.feed(chunk({"tool_calls": [call(0, "c", "quiz", {"k": [1]})]}))
    assert a.tool_calls()[0].arguments == {"k": [1]}


def test_text_usage_cost_and_finish_reason_are_read() -> None:
    a = StreamAssembler(ids())
    assert [d.text for d in a.feed(chunk({"content": "Hel"}))] == ["Hel"]
    assert a.feed(chunk({"content": ""})) == []
    a.feed(chunk(finish_reason="length"))
    a.feed({"choices": [], "usage": {"prompt_tokens": 0, "completion_tokens": 9, "cost": 0.002}})
    assert a.finish_reason == "length"
    assert (a.input_tokens, a.output_tokens, a.reported_cost) == (0, 9, 0.002)


def test_a_zero_reported_cost_is_not_taken_as_a_price() -> None:
    a = StreamAssembler(ids())
    a.feed({"choices": [], "usage": {"prompt_tokens": 3, "completion_tokens": 4, "cost": 0.0}})
    assert a.reported_cost is None
