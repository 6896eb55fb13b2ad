"""Steers are delivered exactly once; the hand-off is derived from the record."""

from __future__ import annotations

from studyhall.core.agents.roster import completed_probe, pending_handoff
from studyhall.core.contracts.chat import DataPart, SteerPart
from studyhall.core.contracts.steers import (
    claim_steers,
    context_steer_id,
    delivered_steer_ids,
    is_delivered,
    job_steer_id,
    probe_steer_id,
    steer_message,
    steer_part,
)

from tests.support.transcript import AT, PROBE_ARGS, assistant, call, user


def _steer(sid: str, text: str = "news"):
    return steer_message(sid, "job", text, AT)


def test_steer_ids_are_deterministic() -> None:
    assert probe_steer_id("chat_1") == "steer_probe_chat_1"
    assert job_steer_id("job_9") == "steer_job_9"
    assert _steer("steer_job_9").id == "steer_job_9"


def test_one_rule_builds_every_kind_of_steer_id_and_reads_it_back_from_the_transcript() -> None:
    built = {
        "handoff": probe_steer_id("chat_1"),
        "context": context_steer_id("chat_1"),
        "job": job_steer_id("job_1"),
    }
    assert built == {"handoff": "steer_probe_chat_1", "context": "steer_ctx_chat_1",
                     "job": "steer_job_1"}
    steers = [steer_message(sid, kind, "news", AT) for kind, sid in built.items()]
    markers = [steer_part(m) for m in steers]
    assert [(m.steer_id, m.kind) for m in markers if m] == [(s, k) for k, s in built.items()]
    assert steer_part(user("u1", "hi")) is None
    transcript = [user("u1", "hi"), *steers]
    assert delivered_steer_ids(transcript) == set(built.values())
    assert all(is_delivered(transcript, sid) for sid in built.values())
    assert not is_delivered(transcript, job_steer_id("job_2"))


def test_claim_skips_steers_already_in_the_transcript_and_duplicates() -> None:
    transcript = [user("u1", "hi"), _steer("steer_a")]
    queued = [_steer("steer_a"), _steer("steer_b"), _steer("steer_b", "again"), _steer("steer_c")]
    claimed = claim_steers(transcript, queued)
    assert [m.id for m in claimed] == ["steer_b", "steer_c"]
    assert claimed[0].parts[1].text == "news"  # the first queued copy wins
    assert claim_steers([*transcript, *claimed], queued) == []


def test_claim_ignores_messages_that_are_not_steers() -> None:
    assert claim_steers([], [user("u1", "hi")]) == []


def test_no_handoff_before_a_successful_probe_done() -> None:
    failed = assistant("a1", call("p1", "probe_done", state="output-error", error="bad"))
    assert completed_probe([failed]) is None
    assert pending_handoff("c1", [user("u1", "hi"), failed], AT) is None


def test_handoff_once_after_probe_done() -> None:
    done = assistant("a1", call("p1", "probe_done", output={"status": "filed"}, **PROBE_ARGS))
    steer = pending_handoff("c1", [done], AT)
    assert steer is not None and steer.id == "steer_probe_c1" and steer.role == "user"
    marker = steer.parts[0]
    assert isinstance(marker, SteerPart) and marker.kind == "handoff"
    assert "pass the exam" in steer.parts[1].text and "plan_init" in steer.parts[1].text
    assert isinstance(steer.parts[2], DataPart) and steer.parts[2].data["floor"] == "sets"
    assert is_delivered([done, steer], "steer_probe_c1")
    assert pending_handoff("c1", [done, steer], AT) is None
