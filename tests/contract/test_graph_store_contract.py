"""The GraphStore contract (ledgers + side stores), held against the in-memory and JSONL stores."""

from __future__ import annotations

import math
from array import array
from collections.abc import Callable
from pathlib import Path

import pytest
from studyhall.adapters.fakes import InMemoryGraphStore
from studyhall.adapters.store import JsonlGraphStore
from studyhall.core.contracts.graph import Cluster, EdgeAdded, Position, PropositionCreated
from studyhall.core.errors import StoreError
from studyhall.core.ports.storage import GraphStore

from tests.support.records import (
    at,
    checkpoint,
    coverage,
    edge,
    identity,
    observation,
    proposition,
    quiz_event,
)

# (append method, read method, builder) for every plain ledger
LEDGERS = [
    ("append_propositions", "propositions", proposition),
    ("append_edges", "edges", edge),
    ("append_quiz_events", "quiz_events", quiz_event),
    ("append_observations", "observations", observation),
    ("append_identity_links", "identity_links", identity),
]



def _plain(vectors: dict) -> dict:
    """Stored vectors as tuples of floats, to compare with ``==``."""
    return {k: tuple(v.tolist()) for k, v in vectors.items()}

class GraphStoreContract:
    @pytest.fixture
    def store(self) -> GraphStore:
        raise NotImplementedError

    @pytest.fixture
    def reopen(self, store: GraphStore) -> Callable[[], GraphStore]:
        raise NotImplementedError

    @pytest.mark.parametrize(("append", "read", "build"), LEDGERS)
    def test_ledger_round_trip_in_append_order(self, store, reopen, append, read, build) -> None:
        getattr(store, append)([build("r1"), build("r2")])
        getattr(store, append)([build("r3")])
        for view in (store, reopen()):
            got = getattr(view, read)()
            assert [r.id for r in got.records] == ["r1", "r2", "r3"]
            assert got.records[0] == build("r1")
            assert (got.skipped, got.replayed) == (0, 0)

    @pytest.mark.parametrize(("append", "read", "build"), LEDGERS)
    def test_a_replayed_append_is_ignored(self, store, reopen, append, read, build) -> None:
        getattr(store, append)([build("r1"), build("r2")])
        getattr(store, append)([build("r2"), build("r1")])  # a retried run
        for view in (store, reopen()):
            got = getattr(view, read)()
            assert [r.id for r in got.records] == ["r1", "r2"]
            assert got.replayed == 2

    def test_first_record_of_an_id_wins(self, store: GraphStore) -> None:
        store.append_propositions([proposition("p1", "First wording.")])
        store.append_propositions([proposition("p1", "A later, different wording.")])
        assert store.propositions().records[0].text == "First wording."

    def test_empty_ledgers_read_empty(self, store: GraphStore) -> None:
        for _, read, _ in LEDGERS:
            got = getattr(store, read)()
            assert got.records == () and got.skipped == 0
        assert store.checkpoints().records == ()
        assert store.coverage("chat_a").records == ()

    def test_empty_append_writes_nothing(self, store: GraphStore) -> None:
        store.append_edges([])
        assert store.edges().records == ()

    def test_edges_keep_from_and_to(self, store: GraphStore, reopen) -> None:
        store.append_edges([edge("e1", "n_a", "n_b")])
        got = reopen().edges().records[0]
        assert (got.source, got.target) == ("n_a", "n_b")

    def test_a_batch_with_one_invalid_record_is_refused_whole(self, store: GraphStore) -> None:
        store.append_edges([edge("e1")])
        bad = EdgeAdded.model_construct(
            id="e3",
            source="n_1",
            target="n_2",
            relation="causes",
            source_id="chat_a",
            run_id="run_1",
            at=at(),
        )
        with pytest.raises(StoreError, match="record 2 of 2.*does not fit EdgeAdded"):
            store.append_edges([edge("e2"), bad])
        with pytest.raises(StoreError, match="expected a EdgeAdded, got QuizEvent"):
            store.append_edges([quiz_event("q1")])  # type: ignore[list-item]
        empty_text = PropositionCreated.model_construct(
            **{**proposition("p1").__dict__, "text": ""}
        )
        with pytest.raises(StoreError):
            store.append_propositions([empty_text])
        assert [r.id for r in store.edges().records] == ["e1"]
        assert store.propositions().records == ()

    def test_checkpoints_round_trip(self, store: GraphStore, reopen) -> None:
        store.append_checkpoint(checkpoint("run_1", propositions=3))
        store.append_checkpoint(checkpoint("run_1", propositions=3))
        store.append_checkpoint(checkpoint("run_2"))
        got = reopen().checkpoints()
        assert [c.id for c in got.records] == ["run_1", "run_2"]
        assert got.records[0].propositions == 3 and got.replayed == 1

    def test_coverage_is_kept_per_source(self, store: GraphStore, reopen) -> None:
        store.append_coverage("chat_a", [coverage("chat_a", "f1"), coverage("chat_a", "f2")])
        store.append_coverage("chat_b", [coverage("chat_b", "f1")])
        store.append_coverage("chat_a", [coverage("chat_a", "f1")])
        view = reopen()
        assert [c.fingerprint for c in view.coverage("chat_a").records] == ["f1", "f2"]
        assert [c.id for c in view.coverage("chat_b").records] == ["chat_b:f1"]
        assert view.coverage("chat_a").replayed == 1

    def test_coverage_of_another_source_is_refused(self, store: GraphStore) -> None:
        with pytest.raises(StoreError, match="belongs to source 'chat_b'"):
            store.append_coverage("chat_a", [coverage("chat_a", "f1"), coverage("chat_b", "f2")])
        assert store.coverage("chat_a").records == ()

    def test_coverage_source_ids_need_not_be_file_names(self, store: GraphStore, reopen) -> None:
        odd = "notes/My Vault/../week 1.md"
        store.append_coverage(odd, [coverage(odd, "f1")])
        store.append_coverage(
            "notes-My-Vault-week-1.md", [coverage("notes-My-Vault-week-1.md", "f2")]
        )
        assert [c.source_id for c in reopen().coverage(odd).records] == [odd]
        assert [c.fingerprint for c in reopen().coverage("notes-My-Vault-week-1.md").records] == [
            "f2"
        ]

    # --- side stores ---------------------------------------------------------------------

    def test_positions_round_trip_and_replace_whole(self, store: GraphStore, reopen) -> None:
        assert store.positions() == {}
        store.save_positions({"n_1": Position(x=1.5, y=-2.0), "n_2": Position(x=0, y=0)})
        assert reopen().positions() == {"n_1": Position(x=1.5, y=-2.0), "n_2": Position(x=0, y=0)}
        store.save_positions({"n_2": Position(x=3, y=4)})
        assert reopen().positions() == {"n_2": Position(x=3, y=4)}

    def test_positions_that_would_not_read_back_are_refused(self, store: GraphStore) -> None:
        store.save_positions({"n_1": Position(x=1, y=1)})
        with pytest.raises(StoreError):
            store.save_positions({"n_1": Position(x=math.nan, y=0)})
        with pytest.raises(StoreError, match="node ids"):
            store.save_positions({"": Position(x=0, y=0)})
        assert store.positions() == {"n_1": Position(x=1, y=1)}

    def test_embeddings_round_trip_as_float32_per_model(self, store: GraphStore, reopen) -> None:
        assert store.embeddings("minilm") == {}
        store.save_embeddings("minilm", {"n_1": [0.5, -0.25, 1.0], "n_2": (0.1, 0.2, 0.3)})
        store.save_embeddings("openai/text-embedding-3-small", {"n_1": [1.0, 0.0]})
        view = reopen()
        got = view.embeddings("minilm")
        # float32 numpy rows, never tuples of Python floats
        assert all(v.dtype == "float32" and v.shape == (3,) for v in got.values())
        assert tuple(got["n_1"].tolist()) == (0.5, -0.25, 1.0)
        assert tuple(got["n_2"].tolist()) == tuple(array("f", [0.1, 0.2, 0.3]))
        assert _plain(view.embeddings("openai/text-embedding-3-small")) == {"n_1": (1.0, 0.0)}
        store.save_embeddings("minilm", {"n_3": [0.0, 0.0, 1.0]})
        assert set(reopen().embeddings("minilm")) == {"n_3"}

    @pytest.mark.parametrize(
        "vectors",
        [
            {"n_1": [1.0, 2.0], "n_2": [1.0]},  # mixed dimensions
            {"n_1": [1.0, math.nan]},
            {"n_1": [1.0, math.inf]},
            {"n_1": [1e300]},  # not a float32
            {"n_1": []},
            {"n_1": ["a", "b"]},
            {"n_1": "12"},
            {"n_1": [True, False]},
            {"": [1.0]},
        ],
    )
    def test_bad_embeddings_are_refused(self, store: GraphStore, vectors) -> None:
        store.save_embeddings("minilm", {"n_0": [1.0, 0.0]})
        with pytest.raises(StoreError, match="Refused to save embeddings"):
            store.save_embeddings("minilm", vectors)
        assert _plain(store.embeddings("minilm")) == {"n_0": (1.0, 0.0)}

    def test_clusters_round_trip_and_bad_ones_are_refused(self, store: GraphStore, reopen) -> None:
        assert store.clusters() == []
        clusters = [
            Cluster(id="c1", node_ids=("n_1", "n_2"), label="Cells"),
            Cluster(id="c2", node_ids=("n_3",)),
        ]
        store.save_clusters(clusters)
        assert reopen().clusters() == clusters
        with pytest.raises(StoreError):
            store.save_clusters([Cluster.model_construct(id="c3", node_ids="n_1", label=3)])
        assert reopen().clusters() == clusters


class TestInMemoryGraphStore(GraphStoreContract):
    @pytest.fixture
    def store(self) -> GraphStore:
        return InMemoryGraphStore()

    @pytest.fixture
    def reopen(self, store: GraphStore) -> Callable[[], GraphStore]:
        return lambda: store


class TestJsonlGraphStore(GraphStoreContract):
    @pytest.fixture
    def root(self, tmp_path: Path) -> Path:
        return tmp_path / "graph"

    @pytest.fixture
    def store(self, root: Path) -> GraphStore:
        return JsonlGraphStore(root)

    @pytest.fixture
    def reopen(self, root: Path) -> Callable[[], GraphStore]:
        return lambda: JsonlGraphStore(root)

    def test_coverage_files_stay_inside_the_graph_folder(self, store, root: Path) -> None:
        hostile = "../../outside"
        store.append_coverage(hostile, [coverage(hostile, "f1")])
        files = [p for p in root.parent.rglob("*") if p.is_file()]
        assert files and all(root / "coverage" in p.parents for p in files)
