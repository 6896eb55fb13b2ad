"""The record -> provider messages: steps, steers, dropped data, and no unanswered tool call."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st
from studyhall.core.classroom.record_messages import to_provider_messages, tool_result_content
from studyhall.core.contracts.steers import steer_message

from tests.support.transcript import AT, assistant, call, data, text, user


def test_plain_exchange_keeps_order_and_roles() -> None:
    out = to_provider_messages([user("u1", "hi"), assistant("a1", text("Hello!"))])
    assert out == [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "Hello!"},
    ]


def test_each_step_is_text_then_its_calls_then_their_results() -> None:
    msg = assistant(
        "a1",
        text("Let me plan."),
        call("c1", "plan_init", state="output-error", error="line 2, col 3: expected a node id",
             title="T", mermaid="graph TD\n  A -->"),
        text("Fixed."),
        call("c2", "plan_init", state="input-available", title="T", mermaid="graph TD\n A-->B"),
    )
    out = to_provider_messages([user("u1", "go"), msg])
    assert [m["role"] for m in out] == ["user", "assistant", "tool", "assistant", "tool"]
    assert out[1]["content"] == "Let me plan."
    assert out[1]["tool_calls"][0]["id"] == "c1"
    assert json.loads(out[1]["tool_calls"][0]["function"]["arguments"])["title"] == "T"
    assert "line 2, col 3" in out[2]["content"] and out[2]["tool_call_id"] == "c1"
    assert out[3]["content"] == "Fixed."
    # a plan still awaiting approval is never sent unanswered
    assert json.loads(out[4]["content"])["status"] == "unanswered"


def test_dangling_server_call_gets_an_interrupted_result() -> None:
    msg = assistant("a1", call("c1", "probe_done", state="input-available"))
    out = to_provider_messages([msg])
    assert out[0]["content"] is None
    assert json.loads(out[1]["content"])["status"] == "interrupted"
    interrupted = assistant("a2", call("c2", "probe_done", state="interrupted"))
    assert json.loads(to_provider_messages([interrupted])[1]["content"])["status"] == "interrupted"


def test_pending_quiz_is_answered_as_unanswered() -> None:
    out = to_provider_messages([assistant("a1", call("q1", "quiz", state="input-available"))])
    assert json.loads(out[-1]["content"])["status"] == "unanswered"


def test_graded_output_is_the_tool_content() -> None:
    part = call("q1", "quiz", output={"verdicts": ["correct"]})
    assert json.loads(tool_result_content(part)) == {"verdicts": ["correct"]}


def test_data_parts_are_dropped_and_data_only_messages_vanish() -> None:
    msg = assistant("a1", call("c1", "probe_done", output={"status": "filed"}),
                    data("assessment", floor="x"))
    out = to_provider_messages([msg, user("u0", "") .model_copy(update={"parts": (data("x"),)})])
    assert all("assessment" not in json.dumps(m) for m in out)
    assert [m["role"] for m in out] == ["assistant", "tool"]


def test_steer_is_a_user_message_marked_as_not_from_the_learner() -> None:
    steer = steer_message("steer_probe_c1", "handoff", "Teacher, take over.", AT,
                          data_name="assessment", data={"floor": "x"})
    (out,) = to_provider_messages([steer])
    assert out["role"] == "user"
    assert "Teacher, take over." in out["content"]
    assert "not written by the learner" in out["content"]
    assert "floor" not in out["content"]


def test_empty_assistant_message_sends_nothing() -> None:
    assert to_provider_messages([assistant("a1")]) == []


_states = st.sampled_from(["input-available", "output-available", "output-error", "interrupted"])
_names = st.sampled_from(["quiz", "ask_user_question", "plan_init", "probe_done", "mystery"])
_part = st.one_of(
    st.builds(text, st.text(max_size=5)),
    st.builds(lambda i, n, s: call(f"c{i}", n, state=s), st.integers(0, 10**6), _names, _states),
    st.builds(lambda: data("d")),
)


@given(st.lists(st.lists(_part, max_size=6), max_size=5))
def test_every_tool_call_is_followed_by_its_result(parts_per_message: list) -> None:
    messages = []
    for i, parts in enumerate(parts_per_message):
        seen = set()
        unique = []
        for p in parts:  # ids are unique within a chat
            key = getattr(p, "tool_call_id", None)
            if key is not None:
                if key in seen:
                    continue
                seen.add(key)
            unique.append(p)
        messages.append(assistant(f"a{i}", *unique))
        messages.append(user(f"u{i}", "next"))
    out = to_provider_messages(messages)
    open_calls: list[str] = []
    for m in out:
        if m["role"] == "tool":
            assert open_calls and open_calls[0] == m["tool_call_id"]
            open_calls.pop(0)
        else:
            assert not open_calls, "a message came between a tool call and its result"
            open_calls = [c["id"] for c in m.get("tool_calls", [])]
    assert not open_calls
