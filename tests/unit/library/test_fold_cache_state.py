"""The fold is canonical and its saved state is disposable.

However the ledgers are split between reads — and whether the fold was saved, serialised and
restored somewhere in between — the snapshot equals the one a fresh fold of everything gives.
That is what lets the fold cache exist: deleting it can only cost time.
"""

from __future__ import annotations

import marshal
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from studyhall.core.contracts.graph import (
    EdgeAdded,
    Evidence,
    IdentityLinked,
    PropositionCreated,
    QuizEvent,
    RunCheckpoint,
    UnderstandingObserved,
)
from studyhall.core.library.graph.fold import LEDGERS
from studyhall.core.library.graph.snapshot import (
    FoldStateError,
    GraphFold,
    Ledgers,
    fold_snapshot,
    from_plain,
    to_plain,
)
from studyhall.core.library.graph.trail import unpack_trail

T0 = datetime(2025, 3, 1, 10, 0, tzinfo=UTC)
PLUS2 = timezone(timedelta(hours=2))
NODES = ["a", "b"]
RUNS = ["r1", "r2", "r3", "dead"]
SOURCES = ["chat_1", "chat_2", "note_x"]


def when(minute: int, zone: int) -> datetime:
    # Same instants written in two offsets: equal times must still print as written.
    return (T0 + timedelta(minutes=minute)).astimezone(PLUS2 if zone else UTC)


evidence = st.builds(lambda s, m, q: Evidence(source_id=s, message_id=f"m{m}", quote=f"q{q}"),
                     st.sampled_from(SOURCES), st.integers(0, 2), st.integers(0, 2))
minute, zone = st.integers(0, 6), st.integers(0, 1)
run, node, source = st.sampled_from(RUNS), st.sampled_from(NODES), st.sampled_from(SOURCES)

# Ids come from part of the content, so a "replay" with other content happens too: the store
# keeps the first line per id, and so does ``ledgers_of``.
record = st.one_of(
    st.builds(lambda n, r, m, z, s, ev: ("propositions", PropositionCreated(
        id=f"p_{n}_{r}_{m}", node_id=n, text=f"{n} at {m} by {r}", evidence=tuple(ev),
        source_id=s, run_id=r, at=when(m, z))),
        node, run, minute, zone, source, st.lists(evidence, max_size=3)),
    st.builds(lambda n, r, m, z, s, ev: ("identities", IdentityLinked(
        id=f"i_{n}_{r}_{m}", node_id=n, text="again", evidence=tuple(ev), source_id=s,
        run_id=r, at=when(m, z))),
        node, run, minute, zone, source, st.lists(evidence, max_size=3)),
    # A conversion folding node "b" into "a": before or after b's own records, in any read.
    st.builds(lambda r, m, s, ev: ("identities", IdentityLinked(
        id=f"x_b_{r}_{m}", node_id="a", text="topic", evidence=tuple(ev), source_id=s,
        run_id=r, at=when(m, 0), absorbs="b")),
        run, minute, source, st.lists(evidence, max_size=1)),
    st.builds(lambda a, b, k, r, m: ("edges", EdgeAdded.model_validate({
        "id": f"e_{a}_{b}_{k}_{r}_{m}", "from": a, "to": b, "relation": k,
        "source_id": "chat_1", "run_id": r, "at": when(m, 0)})),
        node, node, st.sampled_from(["follows", "supports"]), run, minute),
    st.builds(lambda n, v, r, m, c, q: ("quiz_events", QuizEvent(
        id=f"z_{n}_{c}_{q}_{r}_{m}", node_id=n, verdict=v, source_id="chat_1", tool_call_id=c,
        question_index=q, run_id=r, at=when(m, 0))),
        node, st.sampled_from(["correct", "miss", "dont-know"]), run, minute,
        st.sampled_from(["c1", "c2"]), st.integers(0, 1)),
    st.builds(lambda n, lv, r, m: ("observations", UnderstandingObserved(
        id=f"o_{n}_{lv}_{r}_{m}", node_id=n, level=lv, source_id="chat_1",
        message_ids=("m0",), run_id=r, at=when(m, 0))),
        node, st.sampled_from(["solid", "partial", "confused", "misconception"]), run, minute),
    st.builds(lambda r: ("checkpoints", RunCheckpoint(id=r, source_id="chat_1",
                                                      started_at=T0, finished_at=T0)),
              st.sampled_from(RUNS[:3])),
)


def ledgers_of(records: list[tuple[str, object]]) -> dict[str, list[object]]:
    by: dict[str, dict[str, object]] = {name: {} for name in LEDGERS}
    for name, rec in records:
        by[name].setdefault(rec.id, rec)  # type: ignore[attr-defined]
    return {name: list(recs.values()) for name, recs in by.items()}


def reads(ledgers: dict[str, list[object]], rounds: list[list[int]]):
    """What a tail reader gets, read after read: each round says how many new lines each
    ledger has (ledgers grow independently); the last read takes whatever is left."""
    done = dict.fromkeys(LEDGERS, 0)
    for grown in [*rounds, [10**9] * len(LEDGERS)]:
        batch = {}
        for name, more in zip(LEDGERS, grown, strict=True):
            batch[name] = ledgers[name][done[name]:done[name] + more]
            done[name] += len(batch[name])
        yield batch


rounds = st.lists(st.lists(st.integers(0, 3), min_size=len(LEDGERS), max_size=len(LEDGERS)),
                  max_size=6)


def feed(fold: GraphFold, batch: dict[str, list[object]]) -> None:
    for name in LEDGERS:  # checkpoints first, as the store feeds them
        fold.feed(name, batch[name])


def through_bytes(fold: GraphFold) -> GraphFold:
    """Save and load as the cache does: plain data, marshal bytes, and back."""
    plain = marshal.loads(marshal.dumps(to_plain(fold.export())))
    return GraphFold.restore(from_plain(plain))


cases = settings(max_examples=150, deadline=None)


@cases
@given(st.lists(record, max_size=40), rounds)
def test_any_split_into_reads_gives_the_fresh_fold(records, split):
    ledgers = ledgers_of(records)
    fold = GraphFold()
    for batch in reads(ledgers, split):
        feed(fold, batch)
        fold.snapshot()
    assert fold.snapshot() == fold_snapshot(Ledgers(**ledgers))


@cases
@given(st.lists(record, max_size=40), rounds, st.integers(0, 6))
def test_a_saved_and_restored_fold_goes_on_exactly_like_a_fresh_one(records, split, save_at):
    ledgers = ledgers_of(records)
    fold = GraphFold()
    for i, batch in enumerate(reads(ledgers, split)):
        if i == save_at:
            before = fold.snapshot()
            fold = through_bytes(fold)
            assert fold.snapshot() == before
        feed(fold, batch)
    assert fold.snapshot() == fold_snapshot(Ledgers(**ledgers))


def unpacked(plain: tuple) -> tuple:
    """A plain state with its packed trails decoded (marshal's bytes depend on refcounts)."""
    nodes = (*plain[4][:8], tuple(unpack_trail(blob) for blob in plain[4][8]))
    orphans = tuple((*row[:2], unpack_trail(row[2])) for row in plain[5])
    return (*plain[:4], nodes, orphans, *plain[6:])


@cases
@given(st.lists(record, max_size=30))
def test_saving_a_restored_fold_saves_the_same_state(records):
    fold = GraphFold()
    feed(fold, ledgers_of(records))
    plain = to_plain(fold.export())
    assert unpacked(to_plain(through_bytes(fold).export())) == unpacked(plain)


def test_times_keep_their_offset_through_the_cache():
    ledgers = ledgers_of([
        ("checkpoints", RunCheckpoint(id="r1", source_id="c", started_at=T0, finished_at=T0)),
        ("propositions", PropositionCreated(
            id="p1", node_id="a", text="A.", source_id="c", run_id="r1", at=when(0, 1),
            evidence=(Evidence(source_id="c", message_id="m", quote="q"),)))])
    fold = GraphFold()
    feed(fold, ledgers)
    [node] = through_bytes(fold).snapshot().nodes
    assert node.created_at.isoformat() == "2025-03-01T12:00:00+02:00"
    assert node.evidence[0].at.isoformat() == "2025-03-01T12:00:00+02:00"


def test_naive_and_aware_times_are_comparable():
    """A hand-edited line without an offset is taken as UTC instead of breaking every read."""
    naive = PropositionCreated(id="p2", node_id="a", text="Earlier.", source_id="c",
                               run_id="r1", at=datetime(2025, 3, 1, 9, 0))
    aware = PropositionCreated(id="p1", node_id="a", text="Later.", source_id="c",
                               run_id="r1", at=T0)
    cp = RunCheckpoint(id="r1", source_id="c", started_at=T0, finished_at=T0)
    [node] = fold_snapshot(Ledgers(propositions=[aware, naive], checkpoints=[cp])).nodes
    assert node.text == "Earlier." and node.created_at.tzinfo is not None


@pytest.mark.parametrize("damage", [
    lambda p: (99, *p[1:]),  # another version
    lambda p: p[:-1],  # a field missing
    lambda p: (*p[:4], (*p[4][:8], ("not bytes",)), *p[5:]),  # a trail that is not packed
    lambda p: (*p[:4], (*p[4][:8], ()), *p[5:]),  # columns of different lengths
    lambda p: (*p[:7], 10**6),  # more shown edges than edges
    lambda p: (*p[:1], (("nonsense", 1, None),), *p[2:]),  # an unknown ledger
])
def test_a_state_that_does_not_fit_is_refused(damage):
    fold = GraphFold()
    feed(fold, ledgers_of([
        ("checkpoints", RunCheckpoint(id="r1", source_id="c", started_at=T0, finished_at=T0)),
        ("propositions", PropositionCreated(id="p1", node_id="a", text="A.", source_id="c",
                                            run_id="r1", at=T0))]))
    with pytest.raises(FoldStateError):
        from_plain(damage(to_plain(fold.export())))


def test_an_earlier_ledger_line_read_later_still_comes_first():
    """A proposition read after an identity link of the same node still names its sources and
    evidence first: ledger order, not reading order, decides."""
    cp = RunCheckpoint(id="r1", source_id="chat_1", started_at=T0, finished_at=T0)
    quote = Evidence(source_id="chat_2", message_id="m0", quote="q0")
    link = IdentityLinked(id="i1", node_id="a", text="again", evidence=(quote,),
                          source_id="chat_2", run_id="r1", at=T0)
    first = PropositionCreated(id="p0", node_id="b", text="B.", source_id="chat_1", run_id="r1",
                               at=T0)
    statement = PropositionCreated(id="p1", node_id="a", text="A.", evidence=(quote,),
                                   source_id="chat_1", run_id="r1", at=T0)
    ledgers = ledgers_of([("checkpoints", cp), ("propositions", first),
                          ("propositions", statement), ("identities", link)])
    fold = GraphFold()
    for batch in reads(ledgers, [[1, 1, 1, 0, 0, 0]]):  # the link is read before the statement
        feed(fold, batch)
    fresh = fold_snapshot(Ledgers(**ledgers))
    assert fold.snapshot() == fresh
    node = fresh.node("a")
    assert node.sources == ("chat_1", "chat_2")
    assert [e.run_id for e in node.evidence] == ["r1"] and len(node.rows()[0]) == 1


# What a saved fold state depends on: change any of these modules and a cache written before
# may hold what this code would no longer derive (a score, an order). The test below makes the
# change visible: bump STATE_VERSION in fold_state.py (old caches are then ignored) and record
# the new digest here.
DERIVATION = ("graph/fold.py", "graph/fold_node.py", "graph/fold_state.py", "graph/trail.py",
              "graph/view.py", "learner/mastery.py", "learner/tracing.py")
DERIVATION_DIGEST = (7, "9686c9ca92247ab2")  # the learner's own word, "this is wrong" (issue 29)


def derivation_digest() -> str:
    import ast
    import hashlib
    from pathlib import Path

    from studyhall.core import library

    folder = Path(library.__file__).parent
    trees = [ast.dump(ast.parse((folder / name).read_text("utf-8"))) for name in DERIVATION]
    return hashlib.sha256("\n".join(trees).encode()).hexdigest()[:16]


def test_the_state_version_moves_with_the_derivation():
    from studyhall.core.library.graph.fold_state import STATE_VERSION

    assert (STATE_VERSION, derivation_digest()) == DERIVATION_DIGEST, (
        "The fold's derivation changed: bump STATE_VERSION in core/library/graph/fold_state.py "
        f"and set DERIVATION_DIGEST = ({STATE_VERSION + 1}, '<the new digest>') in this test.")
