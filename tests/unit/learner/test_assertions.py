"""What the learner says of themselves: "I know this" multiplies the odds of knowing by its
documented weight (3), "I don't know this" by 0.2, both shown in the explanation with the weight;
"this is wrong" sets the model's earlier readings aside (answers stay); a retraction undoes it
exactly; the note is kept as plain text within its cap."""

from __future__ import annotations

import pytest
from studyhall.core.contracts.learner import AssertionRetracted, LearnerAsserted
from studyhall.core.errors import InvalidInput
from studyhall.core.library.graph.snapshot import Ledgers, fold_snapshot
from studyhall.core.library.learner.evidence import LearnerEvidence
from studyhall.core.library.learner.memory import assertion_json, plain_note
from studyhall.core.library.learner.model import LearnerModel
from studyhall.core.library.learner.queue import Limits
from studyhall.core.library.learner.report import mastery_json
from studyhall.core.library.learner.tracing import PRIOR, odds_weight

from tests.support.graph_events import cp, obs, prop, quiz
from tests.support.library_session import at


def said(claim: str, minute: int = 10, rid: str = "las_1", note: str = "") -> LearnerAsserted:
    return LearnerAsserted(id=rid, node_id="bayes", claim=claim, note=note, at=at(minute))


def model(assertions=(), retractions=(), quizzes=(), observations=()) -> LearnerModel:
    ledgers = Ledgers(propositions=[prop("bayes", text="Conditional probability")],
                      quiz_events=list(quizzes), observations=list(observations),
                      checkpoints=[cp("r1")])
    evidence = LearnerEvidence(assertions=assertions, retractions=retractions)
    return LearnerModel(fold_snapshot(ledgers), evidence, at(100), Limits())


def odds(p: float) -> float:
    return p / (1 - p)


@pytest.mark.parametrize(("claim", "weight"), [("know", 3.0), ("dont_know", 0.2)])
def test_an_assertion_moves_the_odds_by_its_documented_weight(claim, weight):
    assert odds_weight(claim) == pytest.approx(weight)
    before = model().score("bayes")
    assert before.value is None  # never tried
    after = model([said(claim)]).score("bayes")
    assert odds(after.value) == pytest.approx(odds(PRIOR) * weight, rel=1e-3)
    # Over existing evidence too: the same factor on the odds.
    answered = [quiz("bayes", "correct", 1)]
    base = model(quizzes=answered).score("bayes").value
    moved = model([said(claim)], quizzes=answered).score("bayes").value
    assert odds(moved) == pytest.approx(odds(base) * weight, rel=1e-3)


def test_the_explanation_shows_what_was_said_with_its_weight_and_note():
    m = model([said("know", note="I use Bayes at work")], quizzes=[quiz("bayes", "miss", 1)])
    lines = m.score("bayes").explanation
    assert lines[1] == ("you said “I know this” on Mar 1 (weight ×3) — I use Bayes at work "
                        "→ 0.48 (was 0.24)")
    out = mastery_json(m, "bayes")
    assert out["explanation"][0]["kind"] == "learner"
    assert out["explanation"][0]["detail"].startswith("You said “I know this”")
    assert out["assertions"] == [assertion_json(said("know", note="I use Bayes at work"))]
    assert out["assertions"][0]["weight"] == pytest.approx(3.0)
    dont = model([said("dont_know")]).score("bayes").explanation[1]
    assert "“I don't know this”" in dont and "(weight ×0.2)" in dont


def test_undo_restores_the_score_exactly():
    answered = [quiz("bayes", "correct", 1), quiz("bayes", "miss", 2, call="c2")]
    base = model(quizzes=answered).score("bayes")
    taken_back = model([said("dont_know")], [AssertionRetracted(id="ret_las_1",
                                                                assertion_id="las_1",
                                                                at=at(20))],
                       quizzes=answered)
    assert taken_back.score("bayes") == base
    assert mastery_json(taken_back, "bayes")["assertions"] == []


def test_this_is_wrong_sets_the_models_earlier_readings_aside_but_not_the_answers():
    seen = [obs("bayes", "misconception", 1)]
    answered = [quiz("bayes", "correct", 2)]
    misread = model(quizzes=answered, observations=seen).score("bayes")
    assert misread.state == "corrected-misconception"
    corrected = model([said("wrong", minute=5)], quizzes=answered, observations=seen)
    score = corrected.score("bayes")
    assert score.value == pytest.approx(model(quizzes=answered).score("bayes").value)
    assert score.state != "corrected-misconception"  # that reading no longer counts
    lines = score.explanation
    assert any("you said “this is wrong”" in line and "earlier session readings set aside"
               in line for line in lines)
    assert any(line.startswith("session observation on Mar 1: misconception (set aside: you "
                               "said this was wrong)") for line in lines)
    # A reading after the learner's word still counts.
    later = [obs("bayes", "misconception", 1), obs("bayes", "confused", 8)]
    assert model([said("wrong", minute=5)], quizzes=answered, observations=later) \
        .score("bayes").value < score.value


def test_the_note_is_plain_text_within_its_cap():
    assert plain_note("  I\u202eknow\u200b\tthis\n\n<b>well</b>\x00 ") == \
        "I know this <b>well</b>"
    assert plain_note("x" * 500) == "x" * 500
    with pytest.raises(InvalidInput, match="keep it to 500"):
        plain_note("x" * 501)
