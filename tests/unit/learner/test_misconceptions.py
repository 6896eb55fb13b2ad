"""The misconception rule on scripted sequences: two wrong answers with the same distractor (or a
swapped pair) on one topic form a pattern with its count; one alone, different distractors, other
topics, "I don't know" or answers outside the window do not; solid later evidence retires it, a
new mix-up brings it back, and the learner's "I know this" alone does not retire it."""

from __future__ import annotations

from datetime import timedelta

from studyhall.core.contracts.learner import LearnerAsserted, ReviewGraded
from studyhall.core.library.graph.snapshot import Ledgers, fold_snapshot
from studyhall.core.library.learner.evidence import LearnerEvidence
from studyhall.core.library.learner.misconceptions import (
    WINDOW,
    WrongChoice,
    misconceptions,
)
from studyhall.core.library.learner.model import LearnerModel
from studyhall.core.library.learner.queue import Limits

from tests.support.graph_events import cp, prop, quiz
from tests.support.library_session import at

AB, BA = "P(A|B)", "P(B|A)"


def wrong(minute: int, chosen: str | tuple[str, ...] = BA, right: str = AB,
          node: str = "bayes") -> WrongChoice:
    picked = (chosen,) if isinstance(chosen, str) else chosen
    return WrongChoice(node, at(minute), picked, (right,), f"c{minute}/q1")


def learner(quizzes=(), grades=(), said=(), minute: int = 1000) -> LearnerModel:
    ledgers = Ledgers(propositions=[prop("bayes", text="Conditional probability"),
                                    prop("trees", text="Trees")],
                      quiz_events=list(quizzes), checkpoints=[cp("r1")])
    return LearnerModel(fold_snapshot(ledgers), LearnerEvidence(grades, assertions=said),
                        at(minute), Limits())


def patterns(answers, model: LearnerModel | None = None):
    model = model or learner()
    return misconceptions(answers, model.score, model.now)


def test_two_wrong_answers_with_the_same_distractor_form_a_pattern_with_its_count():
    found = patterns([wrong(1), wrong(5), wrong(9, chosen=" p(b|a). ")])
    assert len(found) == 1
    m = found[0]
    assert (m.node_id, m.chosen, m.right, m.times) == ("bayes", BA, AB, 3)
    assert (m.first_at, m.last_at) == (at(1), at(9))
    assert m.line == "You often confuse “P(B|A)” and “P(A|B)”: 3 times"
    assert m.json()["line"] == m.line and m.json()["times"] == 3


def test_a_swapped_pair_is_the_same_confusion():
    found = patterns([wrong(1, chosen=BA, right=AB), wrong(2, chosen=AB, right=BA)])
    assert [m.times for m in found] == [2]
    assert {found[0].chosen, found[0].right} == {AB, BA}


def test_one_wrong_answer_different_distractors_or_topics_form_nothing():
    assert patterns([wrong(1)]) == []
    assert patterns([wrong(1, chosen="P(A)"), wrong(2, chosen="P(B)")]) == []
    assert patterns([wrong(1), wrong(2, node="trees")]) == []
    assert patterns([WrongChoice("bayes", at(1), (), (AB,), "c/q1"),
                     WrongChoice("bayes", at(2), (), (AB,), "c/q2")]) == []  # "I don't know"


def test_answers_older_than_the_window_do_not_count():
    model = learner(minute=int(WINDOW / timedelta(minutes=1)) + 10)
    assert patterns([wrong(1), wrong(5)], model) == []
    assert [m.times for m in patterns([wrong(1), wrong(15), wrong(20)], model)] == [2]


def test_solid_later_evidence_retires_it_and_a_new_mix_up_brings_it_back():
    misses = [quiz("bayes", "miss", m, call=f"m{m}") for m in (1, 5)]
    rights = [quiz("bayes", "correct", m, call=f"r{m}") for m in (20, 21, 22)]
    assert [m.times for m in patterns([wrong(1), wrong(5)], learner(misses))] == [2]
    solid = learner([*misses, *rights])
    assert solid.score("bayes").value >= 0.8
    assert patterns([wrong(1), wrong(5)], solid) == []  # retired
    again = [*misses, *rights, quiz("bayes", "miss", 30, call="m30")]
    # A new mix-up after the right answers: the pattern is live again, counting all three.
    assert [m.times for m in patterns([wrong(1), wrong(5), wrong(30)], learner(again))] == [3]


def test_one_right_answer_is_not_enough_while_the_score_is_shaky():
    misses = [quiz("bayes", "miss", m, call=f"m{m}") for m in (1, 5)]
    model = learner([*misses, quiz("bayes", "correct", 20, call="r")])
    assert model.score("bayes").value < 0.8
    assert len(patterns([wrong(1), wrong(5)], model)) == 1


def test_good_reviews_retire_it_but_the_learners_word_alone_does_not():
    misses = [quiz("bayes", "miss", m, call=f"m{m}") for m in (1, 5)]
    said = [LearnerAsserted(id=f"las_{k}", node_id="bayes", claim="know", at=at(20 + k))
            for k in range(4)]
    trusting = learner(misses, said=said)
    assert trusting.score("bayes").value >= 0.8  # the word moved the score...
    assert len(patterns([wrong(1), wrong(5)], trusting)) == 1  # ...but not the pattern
    graded = [ReviewGraded(id=f"rev_{k}", node_id="bayes", grade="easy", at=at(40 + k))
              for k in range(4)]
    reviewed = learner(misses, grades=graded)
    assert reviewed.score("bayes").value >= 0.8
    assert patterns([wrong(1), wrong(5)], reviewed) == []


def test_a_multiple_choice_answer_counts_only_its_distractors_and_long_texts_are_clipped():
    long = "a " * 100
    found = patterns([wrong(1, chosen=(long,)), wrong(2, chosen=(long,))])
    assert found[0].chosen.endswith("…") and len(found[0].chosen) <= 81
    assert found[0].line.startswith("You often confuse “a a")


def test_latest_pattern_first():
    found = patterns([wrong(1), wrong(2), wrong(3, node="trees", chosen="a cycle", right="none"),
                      wrong(4, node="trees", chosen="a cycle", right="none")])
    assert [m.node_id for m in found] == ["trees", "bayes"]


def test_the_same_pick_for_different_questions_names_no_pair():
    # "made" picked where "pyruvate" was right, then where "phosphate" was: a pattern of the
    # pick, not a confusion of "made" with "pyruvate" twice.
    found = patterns([wrong(1, chosen="made", right="pyruvate"),
                      wrong(2, chosen="made", right="phosphate")])
    (m,) = found
    assert (m.chosen, m.right, m.times) == ("made", None, 2)
    assert m.line == "You often answer “made” where it does not fit: 2 times"
    # Once the pair comes back, it is named, with the whole count.
    again = patterns([wrong(1, chosen="made", right="pyruvate"),
                      wrong(2, chosen="made", right="phosphate"),
                      wrong(3, chosen="made", right="pyruvate")])
    assert again[0].line == "You often confuse “made” and “pyruvate”: 3 times"
