"""The mastery estimator (Bayesian knowledge tracing) against learners whose knowledge is known."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from itertools import pairwise

from studyhall.core.library.learner.mastery import SOLID_AT, Signal, score, topic_score
from studyhall.core.library.learner.tracing import PRIOR, emission, step

from tests.support.synthetic_learner import auc, measure, simulate

T0 = datetime(2025, 1, 1, 9, 0, tzinfo=UTC)


def quiz(verdicts: str, difficulty: str = "") -> list[Signal]:
    labels = {"c": "correct", "m": "miss", "d": "dont-know"}
    return [Signal(T0 + timedelta(hours=i), "quiz", labels[v], f"q{i}", difficulty)
            for i, v in enumerate(verdicts)]


def test_a_known_concept_answered_right_most_of_the_time_ends_solid():
    known = score(quiz("cccmcccmcc"))
    assert known.value is not None and known.value >= SOLID_AT and known.state == "solid"


def test_an_unknown_concept_answered_wrong_most_of_the_time_does_not():
    unknown = score(quiz("mmcmdmmcmm"))
    assert unknown.value is not None and unknown.value < 0.5 and unknown.state == "shaky"


def test_i_dont_know_is_stronger_evidence_of_not_knowing_than_a_wrong_answer():
    dont_know, wrong = score(quiz("d")).value, score(quiz("m")).value
    assert dont_know is not None and wrong is not None
    assert dont_know < wrong < PRIOR


def test_difficulty_weighs_the_evidence():
    # A hard question is rarely guessed: getting it right says more; missing it says less.
    easy_right, hard_right = score(quiz("c", "easy")).value, score(quiz("c", "hard")).value
    easy_miss, hard_miss = score(quiz("m", "easy")).value, score(quiz("m", "hard")).value
    assert easy_right < hard_right and easy_miss < hard_miss


def test_review_grades_and_observations_move_the_score_in_their_direction():
    for kind, good, bad in (("review", "easy", "again"), ("observation", "solid", "misconception"),
                            ("teacher", "corrected", "confused")):
        assert step(PRIOR, emission(kind, good)) > PRIOR > step(PRIOR, emission(kind, bad))
    # A self-graded review says less than a graded quiz answer.
    assert step(PRIOR, emission("review", "good")) < step(PRIOR, emission("quiz", "correct"))


def test_every_step_of_the_explanation_chains_from_the_prior_to_the_score():
    result = score(quiz("mmc"))
    steps = list(result.steps())
    assert [s.signal.ref for s in steps] == ["q2", "q1", "q0"]  # newest first
    assert steps[-1].before == PRIOR and round(steps[0].after, 4) == result.value
    assert all(newer.before == older.after for newer, older in pairwise(steps))
    assert steps[0].after > steps[0].before  # the correct answer raised it
    assert result.explanation[1].startswith("quiz q2 on Jan 1: correct → ")


def test_a_corrected_misconception_shows_until_the_evidence_turns_again():
    misconception = Signal(T0, "observation", "misconception", "o1")
    corrected = Signal(T0 + timedelta(hours=1), "teacher", "corrected", "t1", note="fixed")
    assert score([misconception, corrected]).state == "corrected-misconception"
    wrong_again = Signal(T0 + timedelta(hours=2), "quiz", "miss", "q9")
    assert score([misconception, corrected, wrong_again]).state == "shaky"


def test_a_topic_is_solid_only_when_every_part_is():
    solid, shaky = score(quiz("ccc")), score(quiz("m"))
    untried = score([])
    assert topic_score([solid, solid]).state == "solid"
    assert topic_score([solid, untried]).state == "shaky"
    assert topic_score([untried]).state == "not-tried"
    mixed = topic_score([solid, shaky, untried])
    assert mixed.tried == 2 and mixed.parts == 3
    assert mixed.value == round((solid.value + shaky.value + PRIOR) / 3, 4)


def test_mastery_ranks_known_above_unknown_on_simulated_learners(capsys):
    figure = measure(concepts=4000, seed=15, most_events=10)
    with capsys.disabled():
        print(f"\nAUC of mastery vs truth, 4000 simulated concepts, 1-10 events each: {figure:.3f}")
    assert figure >= 0.85


def test_more_evidence_ranks_better():
    assert measure(concepts=2000, seed=3, most_events=3) < measure(concepts=2000, seed=3,
                                                                  most_events=20)


def test_the_auc_helper_counts_ties_half():
    assert auc([(True, 0.9), (False, 0.1)]) == 1.0
    assert auc([(True, 0.5), (False, 0.5)]) == 0.5
    assert auc([(True, 0.1), (False, 0.9), (True, 0.9)]) == 0.25
    known, signals = simulate(random.Random(1), 5)
    assert isinstance(known, bool) and len(signals) == 5
