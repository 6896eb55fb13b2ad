"""What waits for the learner, what is owed a reply, and closing dangling calls."""

from __future__ import annotations

from studyhall.core.classroom.turn_state import (
    close_dangling,
    owes_reply,
    pending_client_calls,
    pending_questions,
)
from studyhall.core.contracts.steers import steer_message

from tests.support.transcript import AT, assistant, call, data, text, user


def test_pending_client_calls_only_counts_waiting_questions() -> None:
    msg = assistant(
        "a1",
        call("q1", "quiz", state="input-available"),
        call("q2", "quiz", state="output-error", error="bad"),
        call("p1", "probe_done", state="input-available"),
        call("k1", "ask_user_question", state="input-available"),
    )
    assert [p.tool_call_id for p in pending_client_calls(msg)] == ["q1", "k1"]
    assert [p.tool_call_id for _, p in pending_questions([user("u", "x"), msg])] == ["q1", "k1"]


def test_owes_reply() -> None:
    assert not owes_reply([])
    assert owes_reply([user("u1", "hi")])
    assert owes_reply([steer_message("steer_x", "job", "done", AT)])
    assert not owes_reply([user("u1", "hi"), assistant("a1", text("Hello"))])
    waiting = assistant("a1", text("Try:"), call("q1", "quiz", state="input-available"))
    assert not owes_reply([waiting])
    answered = assistant("a1", text("Try:"), call("q1", "quiz", output={"v": 1}))
    assert owes_reply([answered])
    handed = assistant("a1", call("p1", "probe_done", output={}), data("assessment"))
    assert owes_reply([handed])


def test_close_dangling_skips_questions_and_interrupts_server_calls() -> None:
    done = assistant("a0", text("ok"))
    msg = assistant(
        "a1",
        call("q1", "quiz", state="input-available"),
        call("p1", "probe_done", state="input-available"),
        call("q0", "quiz", output={"v": 1}),
    )
    (closed,) = close_dangling([done, msg])
    states = {p.tool_call_id: (p.state, p.error) for p in closed.parts}
    assert states["q1"][0] == "output-error" and "wrote a message" in states["q1"][1]
    assert states["p1"][0] == "interrupted"
    assert states["q0"] == ("output-available", None)
    assert close_dangling([done]) == []
