"""The eval's gold matching and metrics."""

from __future__ import annotations

import pytest
from studyhall.core.contracts.search import Chunk
from studyhall.core.library.retrieval.evaluation import (
    EvalOutcome,
    EvalQuestion,
    hits,
    metrics,
    parse_questions,
)


def _moment(start: float, end: float) -> Chunk:
    return Chunk("s:0", "s", "lec.vtt", "transcript", "L", f"t={int(start)}", "x", start=start, end=end)


def test_gold_anchors_match_the_chunk_holding_them():
    assert hits(_moment(84.3, 127.5), "lec.vtt#t=84")  # anchors are whole seconds
    assert hits(_moment(84.3, 127.5), "lec.vtt#t=120")
    assert not hits(_moment(84.3, 127.5), "lec.vtt#t=130")
    assert hits(_moment(84.3, 127.5), "lec.vtt")
    assert not hits(_moment(84.3, 127.5), "other.vtt")
    page = Chunk("p:1", "p", "h.pdf", "pdf", "H", "page=2", "x", page=2)
    assert hits(page, "h.pdf#page=2") and not hits(page, "h.pdf#page=1")
    note = Chunk("n:1", "n", "a.md", "note", "A", "hash-tables", "x", heading="Hash tables")
    assert hits(note, "a.md#hash-tables") and not hits(note, "a.md#big-o")


def test_metrics_rank_answerable_and_count_false_citations():
    a = _moment(0, 10)
    b = Chunk("s:1", "s", "b.txt", "text", "B", "", "y")
    outs = [
        EvalOutcome(EvalQuestion("q1", ("lec.vtt#t=5",), True), "MATCH", (a, b)),
        EvalOutcome(EvalQuestion("q2", ("b.txt",), True), "NO_MATCH", (a, b)),
        EvalOutcome(EvalQuestion("q3", ("c.txt",), True), "NO_MATCH", (a, b)),
        EvalOutcome(EvalQuestion("q4", (), False), "RELATED", (a,)),
        EvalOutcome(EvalQuestion("q5", (), False), "NO_MATCH", (a,)),
    ]
    m = metrics(outs)
    assert m.recall_at_1 == pytest.approx(1 / 3)
    assert m.top_3 == pytest.approx(2 / 3)
    assert m.mrr == pytest.approx((1 + 0.5 + 0) / 3)
    assert m.false_citations == 1 and m.unanswerable == 2
    assert m.coverage_accuracy == pytest.approx(2 / 5)  # q1 cites (right), q5 does not (right)


def test_false_absences_count_answerable_questions_told_not_in_the_material():
    a = _moment(0, 10)
    outs = [
        EvalOutcome(EvalQuestion("near", ("lec.vtt",), True), "NO_MATCH", (a,), unconfirmed=True),
        EvalOutcome(EvalQuestion("far", ("lec.vtt",), True), "NO_MATCH", (a,)),
        EvalOutcome(EvalQuestion("cited", ("lec.vtt",), True), "MATCH", (a,)),
        EvalOutcome(EvalQuestion("off", (), False), "NO_MATCH", (a,)),  # rightly absent
    ]
    assert [o.says_absent for o in outs] == [False, True, False, True]
    assert metrics(outs).false_absences == 1


def test_a_bad_questions_line_is_named():
    with pytest.raises(ValueError, match="line 2"):
        parse_questions('{"question": "a", "gold": ["x"], "answerable": true}\n{"gold": []}\n')
    with pytest.raises(ValueError, match="line 1"):
        parse_questions('{"question": "a", "gold": "x"}')
    assert parse_questions('\n{"question": "a?", "gold": []}\n')[0].answerable is False
