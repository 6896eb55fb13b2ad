"""Today's misconception step uses the pattern when there is one: "You often confuse … in …",
on the pattern's topic, one click to revisit it; without a pattern, a session's mix-up still
shows (the observation), and with neither there is no such step."""

from __future__ import annotations

from studyhall.core.library.graph.snapshot import Ledgers, fold_snapshot
from studyhall.core.library.learner.evidence import LearnerEvidence
from studyhall.core.library.learner.misconceptions import Misconception
from studyhall.core.library.learner.model import LearnerModel
from studyhall.core.library.learner.queue import Limits
from studyhall.core.library.learner.today import today

from tests.support.graph_events import cp, obs, prop, quiz
from tests.support.library_session import at

NOTE = "src_stats"


def model(observed: bool = False) -> LearnerModel:
    ledgers = Ledgers(propositions=[prop("bayes", text="Conditional probability P(A|B)."),
                                    prop("mixup", text="Independence")],
                      quiz_events=[quiz("bayes", "miss", 1), quiz("bayes", "miss", 2, call="c2")],
                      observations=[obs("mixup", "misconception", 3)] if observed else [],
                      checkpoints=[cp("r1")])
    return LearnerModel(fold_snapshot(ledgers), LearnerEvidence(), at(60), Limits())


PATTERN = Misconception("bayes", "P(B|A)", "P(A|B)", 2, at(1), at(2), ("c/q1", "c2/q1"))


def step(m: LearnerModel, patterns=(), has_model: bool = False):
    out = today(m, [], note_of=lambda sources: NOTE, has_model=has_model, has_sessions=True,
                has_notes=True, patterns=patterns).json()
    return next((s for s in out["steps"] if s["kind"] == "misconception"), None)


def test_the_pattern_is_todays_misconception_step():
    got = step(model(observed=True), [PATTERN])
    assert got["node_id"] == "bayes" and got["title"] == "Revisit “Conditional probability P(A|B)”"
    assert got["why"] == ("You often confuse “P(B|A)” and “P(A|B)”: 2 times, last on Mar 1. "
                          "A few right answers will set it straight.")
    assert got["pattern"] == PATTERN.json()
    assert got["action"] == {"label": "Quiz me on the note", "href": f"#/sources/{NOTE}?quiz=1"}
    with_model = step(model(), [PATTERN], has_model=True)
    assert with_model["action"]["session"] == {"topic": "Conditional probability P(A|B)",
                                               "node_id": "bayes"}


def test_without_a_pattern_a_sessions_mix_up_still_shows_and_else_nothing():
    assert step(model(observed=True))["node_id"] == "mixup"
    assert step(model()) is None
