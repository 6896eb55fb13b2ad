"""The turn stream is declared once: each event of the agent loop gives its wire model
(``core/contracts/turn_stream.py``), whose SSE name is the event's, and a turn's failure goes
out as the one ``error`` shape every stream uses."""

from __future__ import annotations

import json
import typing

from studyhall.core.agents import turn_events
from studyhall.core.agents.turn_events import Finish, TurnError, TurnTextDelta
from studyhall.core.contracts.stream import StreamError
from studyhall.core.contracts.turn_stream import TURN_STREAM
from studyhall.core.errors import ModelAuthError


def test_every_turn_event_names_a_model_of_the_turn_stream() -> None:
    events = typing.get_args(turn_events.TurnEvent)
    assert {e.name for e in events} == {m.name for m in TURN_STREAM}
    assert all(callable(getattr(e, "wire_event", None)) for e in events)


def test_a_text_delta_goes_out_as_its_data() -> None:
    event = TurnTextDelta("m1", "Hé\n")
    wire = event.wire_event()
    assert wire.name == event.name == "text-delta"
    assert json.loads(wire.wire()) == event.data == {"message_id": "m1", "text": "Hé\n"}


def test_a_finish_goes_out_as_its_data() -> None:
    event = Finish("awaiting-answer", "teach", ("call_1",))
    assert json.loads(event.wire_event().wire()) == event.data


def test_a_turn_failure_is_the_one_error_shape_with_its_kind_and_action() -> None:
    failure = TurnError.from_model(ModelAuthError("No key for the teacher.",
                                                  role="teacher"))
    wire = failure.wire_event()
    assert isinstance(wire, StreamError) and wire.name == "error"
    assert json.loads(wire.wire()) == {"error": "auth", "kind": "auth", "role": "teacher",
                                       "message": "No key for the teacher.",
                                       "action": "open-settings"}
