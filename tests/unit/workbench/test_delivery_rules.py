"""Exactly-once delivery as pure rules over the transcript and the job record."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from studyhall.core.classroom.record_messages import to_provider_messages
from studyhall.core.contracts.chat import DataPart, Message, TextPart
from studyhall.core.contracts.jobs import Job
from studyhall.core.contracts.steers import claim_steers, job_steer_id, steer_part
from studyhall.core.workbench.delivery import (
    delivery_action,
    is_delivered,
    recovery_action,
    should_wake,
)
from studyhall.core.workbench.steer import job_steer, result_text

AT = datetime(2025, 1, 1, 9, 0, tzinfo=UTC)


def job(**over) -> Job:
    base = {"id": "job_1", "chat_id": "chat_1", "kind": "research", "status": "running",
            "input": {"question": "Why do heaps use arrays?"}, "created_at": AT, "updated_at": AT}
    return Job(**{**base, **over})


def finished(**over) -> Job:
    return job(outcome="done", result={"answer": "Because the tree is complete.", "sources": []},
               attempts=1, finished_at=AT, **over)


def learner(mid: str) -> Message:
    return Message(id=mid, role="user", parts=(TextPart(text="hi"),), created_at=AT)


def test_the_steer_id_is_the_one_the_classroom_claims_by() -> None:
    steer = job_steer(finished(), AT)
    assert steer.id == job_steer_id("job_1") == "steer_job_1"
    assert claim_steers([], [steer]) == [steer]
    assert claim_steers([steer], [steer]) == []  # once in the transcript, never claimed again


def test_a_finished_job_is_a_user_role_steer_with_text_for_the_model_and_data_for_the_ui() -> None:
    message = job_steer(finished(), AT)
    assert (message.id, message.role) == ("steer_job_1", "user")
    marker = steer_part(message)
    assert marker is not None and (marker.steer_id, marker.kind) == ("steer_job_1", "job")
    texts = [p.text for p in message.parts if isinstance(p, TextPart)]
    assert texts == [result_text(finished())] and "complete" in texts[0]
    (artifact,) = [p for p in message.parts if isinstance(p, DataPart)]
    assert artifact.name == "artifact"
    assert artifact.data["result"]["answer"] == "Because the tree is complete."
    assert artifact.data["status"] == "done" and artifact.data["job_id"] == "job_1"
    # provider conversion drops the data part; the model reads the text, marked as a note
    (provider,) = to_provider_messages([message])
    assert provider["role"] == "user" and "Because the tree is complete." in provider["content"]
    assert "artifact" not in provider["content"] and "Studyhall note" in provider["content"]


def test_a_failed_job_steer_says_it_failed_and_carries_no_result() -> None:
    failed = job(outcome="error", error="The demo failed its checks 3 times.", attempts=3)
    message = job_steer(failed, AT)
    text = next(p.text for p in message.parts if isinstance(p, TextPart))
    assert "failed" in text and "3 times" in text
    artifact = next(p for p in message.parts if isinstance(p, DataPart))
    assert artifact.data["result"] is None and artifact.data["error"].startswith("The demo")


def test_an_unfinished_job_has_no_steer() -> None:
    with pytest.raises(ValueError):
        job_steer(job(), AT)


@pytest.mark.parametrize("status", ["done", "error", "aborted"])
def test_settled_jobs_are_left_alone(status: str) -> None:
    assert delivery_action(finished(status=status), [], turn_running=False) == "settled"


def test_a_working_job_waits() -> None:
    assert delivery_action(job(), [], turn_running=False) == "working"


def test_finished_and_not_in_the_transcript_is_delivered() -> None:
    assert delivery_action(finished(), [learner("m1")], turn_running=True) == "deliver"
    assert delivery_action(finished(), [learner("m1")], turn_running=False) == "deliver"


def test_in_the_transcript_it_flips_only_once_the_turn_carrying_it_has_ended() -> None:
    messages = [learner("m1"), job_steer(finished(), AT)]
    assert is_delivered(messages, "job_1")
    assert delivery_action(finished(), messages, turn_running=True) == "hold"
    assert delivery_action(finished(), messages, turn_running=False) == "flip"


def test_another_jobs_steer_does_not_count() -> None:
    other = job_steer(finished(id="job_2"), AT)
    assert delivery_action(finished(), [other], turn_running=False) == "deliver"


def test_wake_only_when_no_turn_runs_and_no_question_waits() -> None:
    assert should_wake(turn_running=False, awaiting_learner=False)
    assert not should_wake(turn_running=True, awaiting_learner=False)
    assert not should_wake(turn_running=False, awaiting_learner=True)


def test_start_up_recovery_decisions() -> None:
    assert recovery_action(finished(status="done")) == "settled"
    assert recovery_action(finished()) == "reconcile"  # finished: deliver or flip, never re-run
    assert recovery_action(job(status="queued")) == "rerun"  # clean shutdown: not a crash
    assert recovery_action(job()) == "rerun"  # crashed mid-work the first time
    assert recovery_action(job(restarts=1)) == "fail"  # and again: fail with a reason
    assert recovery_action(job(restarts=1), max_restarts=2) == "rerun"
