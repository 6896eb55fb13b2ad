"""Fusion ranks by every signal; coverage cases cite only what calibration or grades allow."""

from __future__ import annotations

from studyhall.core.contracts.search import Candidate, Chunk
from studyhall.core.library.retrieval.hybrid import Hit, fuse, rerank
from studyhall.core.library.retrieval.match_cases import (
    CALIBRATION,
    decide_by_grades,
    decide_by_scores,
    is_about_here,
    is_far,
    navigation_target,
    suggestions,
    wants_navigation,
)


def _c(i: int, anchor: str = "", path: str = "a.txt") -> Chunk:
    return Chunk(f"s:{i}", "s", path, "text", "A", anchor, f"text {i}")


def _cand(i: int, **signals: float) -> Candidate:
    return Candidate(_c(i), signals)


def test_fusion_rewards_agreement_between_signals():
    pool = [
        _cand(0, bm25=9.0, dense=0.10, coverage=0.2),  # lexical only
        _cand(1, bm25=6.0, dense=0.60, coverage=0.8),  # good on every signal
        _cand(2, bm25=0.5, dense=0.62, coverage=0.1),  # dense only
    ]
    assert fuse(pool)[0].chunk.id == "s:1"


def test_fusion_keeps_score_gaps_that_rank_fusion_would_lose():
    # A chunk far ahead on two signals stays first even though a third signal disagrees.
    pool = [_cand(0, bm25=30.0, dense=0.9, coverage=0.5), _cand(1, bm25=3.0, dense=0.3, coverage=0.6),
            _cand(2, bm25=2.9, dense=0.29, coverage=0.55)]
    assert fuse(pool)[0].chunk.id == "s:0"


def test_a_missing_signal_is_left_out_not_counted_as_zero():
    pool = [_cand(0, bm25=1.0, coverage=0.9), _cand(1, bm25=2.0, coverage=0.1)]
    hits = fuse(pool)
    assert {h.chunk.id for h in hits} == {"s:0", "s:1"}
    assert all("dense" not in h.signals for h in hits)


def test_late_interaction_reranks_only_the_head_and_records_its_score():
    hits = [Hit(_c(i), float(10 - i), {}) for i in range(5)]
    out = rerank(hits, {"s:0": 0.1, "s:1": 0.9, "s:2": 0.2}, depth=3)
    assert out[0].chunk.id == "s:1" and out[0].signals["late"] == 0.9
    assert [h.chunk.id for h in out[3:]] == ["s:3", "s:4"]


def test_scores_below_calibration_cite_nothing():
    weak = {"late": CALIBRATION.related_late - 0.05, "coverage": 1.0, "dense": 0.9}
    assert decide_by_scores([weak]).case == "NO_MATCH"
    assert decide_by_scores([weak]).cited == ()


def test_scores_above_calibration_cite_match_or_related():
    strong = {"late": CALIBRATION.match_late + 0.01, "coverage": 1.0}
    related = {"late": CALIBRATION.related_late + 0.001, "coverage": CALIBRATION.related_coverage}
    assert decide_by_scores([strong, related]).case == "MATCH"
    assert decide_by_scores([strong, related]).cited == (0,)
    assert decide_by_scores([related]).case == "RELATED"


def test_a_good_second_hit_cannot_rescue_a_weak_first_one():
    weak = {"late": 0.2, "coverage": 0.1}
    strong = {"late": 0.99, "coverage": 1.0}
    assert decide_by_scores([weak, strong]).case == "NO_MATCH"


def test_only_a_hit_low_on_every_signal_is_far_from_the_question():
    # Far: "not in your material" may be said without a model. Anything nearer is unconfirmed.
    assert is_far({"late": CALIBRATION.far_late - 0.01, "coverage": CALIBRATION.far_coverage - 0.01,
                   "dense": 0.9})  # late interaction outranks the chunk vector
    assert not is_far({"late": CALIBRATION.far_late, "coverage": 0.0})
    assert not is_far({"late": 0.1, "coverage": CALIBRATION.far_coverage})  # its words are there
    assert is_far({"dense": CALIBRATION.far_dense - 0.01, "coverage": 0.0})  # no late scorer
    assert not is_far({"dense": CALIBRATION.far_dense, "coverage": 0.0})
    assert is_far({})  # nothing scored at all


def test_the_far_bars_sit_below_the_related_ones():
    assert CALIBRATION.far_late < CALIBRATION.related_late
    assert CALIBRATION.far_dense < CALIBRATION.related_dense
    assert CALIBRATION.far_coverage < CALIBRATION.related_coverage


def test_dense_thresholds_apply_when_there_is_no_late_score():
    assert decide_by_scores([{"dense": CALIBRATION.match_dense, "coverage": 1.0}]).case == "MATCH"
    assert decide_by_scores([{"dense": CALIBRATION.related_dense - 0.01, "coverage": 1.0}]).case == "NO_MATCH"


def test_grades_decide_when_a_model_reranks():
    assert decide_by_grades(["related", "partial", "answers"]).cited == (2, 1)
    assert decide_by_grades(["related", "no"]).case == "RELATED"
    assert decide_by_grades(["no", "no"]) == decide_by_grades([])
    assert decide_by_grades(["no"]).case == "NO_MATCH"


def test_this_questions_and_navigation_requests_are_recognised():
    assert is_about_here("What does this mean?")
    assert is_about_here("why did he just say that")
    assert not is_about_here("What is a closure?")
    assert wants_navigation("Take me to where they define closures")
    assert navigation_target("Take me to where they define closures") == "where they define closures"
    assert not wants_navigation("Where do closures come from?")


def test_at_most_two_suggestions_never_the_current_moment():
    chunks = [_c(i, anchor=f"t={i * 60}", path="l.vtt") for i in range(4)]
    assert suggestions(chunks, current=chunks[0]) == (chunks[1], chunks[2])
    assert suggestions([_c(9)]) == ()  # a whole-file link is not a moment
