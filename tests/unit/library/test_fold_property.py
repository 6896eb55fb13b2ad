"""Property: however the ledgers grow between reads, the incremental fold equals a fresh one."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from studyhall.core.library.graph.snapshot import GraphFold, Ledgers, fold_snapshot

from tests.support.graph_events import cp, edge, obs, prop, quiz

NODES = ["a", "b", "c"]
RUNS = ["r1", "r2", "r3", "dead"]

record = st.one_of(
    st.builds(lambda n, r, m: ("propositions", prop(n, r, minute=m)),
              st.sampled_from(NODES), st.sampled_from(RUNS), st.integers(0, 30)),
    st.builds(lambda a, b, r: ("edges", edge(a, b, run=r)),
              st.sampled_from(NODES), st.sampled_from(NODES), st.sampled_from(RUNS)),
    st.builds(lambda n, v, m, r, c: ("quiz_events", quiz(n, v, m, run=r, call=c)),
              st.sampled_from(NODES), st.sampled_from(["correct", "miss", "dont-know"]),
              st.integers(0, 30), st.sampled_from(RUNS), st.sampled_from(["c1", "c2"])),
    st.builds(lambda n, lv, m, r: ("observations", obs(n, lv, m, run=r)),
              st.sampled_from(NODES),
              st.sampled_from(["solid", "partial", "confused", "misconception"]),
              st.integers(0, 30), st.sampled_from(RUNS)),
    st.builds(lambda r: ("checkpoints", cp(r)), st.sampled_from(RUNS[:3])),
)


def ledgers_of(records: list[tuple[str, object]]) -> Ledgers:
    by: dict[str, dict[str, object]] = {}
    for name, rec in records:
        by.setdefault(name, {}).setdefault(rec.id, rec)  # the store keeps one per id
    return Ledgers(**{name: tuple(recs.values()) for name, recs in by.items()})


@settings(max_examples=200, deadline=None)
@given(st.lists(record, max_size=40), st.lists(st.integers(0, 40), max_size=5))
def test_incremental_fold_equals_fresh_fold(records, cuts):
    fold = GraphFold()
    for cut in sorted(cuts):
        fold.update(ledgers_of(records[:cut]))
        fold.snapshot()
    fold.update(ledgers_of(records))
    assert fold.snapshot() == fold_snapshot(ledgers_of(records))
