"""Clusters (average linkage at 0.6, core-survival labels), layout (deterministic, warm start
keeps the map), search (semantic + literal) and graph context selection."""

from __future__ import annotations

import math

import numpy as np
from studyhall.core.contracts.graph import Cluster, Position
from studyhall.core.library.graph.context import render_context, select_context
from studyhall.core.library.graph.node_search import search_nodes
from studyhall.core.library.upkeep.cluster_names import MAX_NAME, central_name, unique_names
from studyhall.core.library.upkeep.clusters import (
    carry_labels,
    cluster_vectors,
    needs_label,
)
from studyhall.core.library.upkeep.layout import settle_layout


def unit(*xs: float) -> tuple[float, ...]:
    n = math.sqrt(sum(x * x for x in xs))
    return tuple(x / n for x in xs)


def blobs(seed: int = 0, per: int = 8, groups: int = 4, dim: int = 24, noise: float = 0.25):
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(groups, dim))
    vectors = {}
    for g in range(groups):
        for i in range(per):
            vectors[f"g{g}_{i}"] = tuple((centres[g] + rng.normal(scale=noise, size=dim)).tolist())
    return vectors


def average_linkage_reference(vectors, threshold):
    """The textbook greedy algorithm: merge the most similar pair while its average ≥ t."""
    ids = sorted(vectors)
    x = np.array([vectors[i] for i in ids], dtype=float)
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    sim = x @ x.T
    groups = [[i] for i in range(len(ids))]
    while len(groups) > 1:
        best, pair = -2.0, None
        for a in range(len(groups)):
            for b in range(a + 1, len(groups)):
                s = float(np.mean([sim[i, j] for i in groups[a] for j in groups[b]]))
                if s > best:
                    best, pair = s, (a, b)
        if best < threshold:
            break
        a, b = pair
        groups[a] += groups.pop(b)
    return {tuple(sorted(ids[i] for i in g)) for g in groups if len(g) >= 2}


def test_clusters_match_textbook_average_linkage():
    for seed in range(6):
        vectors = blobs(seed, per=6, groups=3, noise=0.5 + 0.1 * seed)
        assert set(cluster_vectors(vectors)) == average_linkage_reference(vectors, 0.6)


def test_clusters_are_deterministic_and_separate_distinct_topics():
    vectors = blobs()
    first = cluster_vectors(vectors)
    assert first == cluster_vectors(dict(reversed(list(vectors.items()))))
    assert sorted(len(g) for g in first) == [8, 8, 8, 8]
    assert all(len({m.split("_")[0] for m in g}) == 1 for g in first)


def test_nothing_below_the_threshold_is_clustered():
    vectors = {"a": unit(1, 0, 0), "b": unit(0, 1, 0), "c": unit(0.59, 0, math.sqrt(1 - 0.59**2))}
    assert cluster_vectors(vectors) == []  # a·c = 0.59 < 0.6
    vectors["c"] = unit(0.61, 0, math.sqrt(1 - 0.61**2))
    assert cluster_vectors(vectors) == [("a", "c")]


def test_identical_vectors_cluster_and_zero_vectors_never_do():
    # Identical unit vectors can have a float32 cosine a hair above 1: never a negative distance.
    same = unit(0.3, 0.5, 0.7)
    vectors = {"a": same, "b": same, "c": same, "z": (0.0, 0.0, 0.0), "y": (0.0, 0.0, 0.0)}
    assert cluster_vectors(vectors) == [("a", "b", "c")]


def test_a_component_too_big_to_hold_is_clustered_in_id_ordered_slices(monkeypatch):
    from studyhall.core.library.upkeep import clusters

    vectors = blobs(seed=1, per=9, groups=1, noise=0.3)  # one component of 9
    monkeypatch.setattr(clusters, "MAX_COMPONENT", 4)
    ids = sorted(vectors)
    expected = set()
    for start in range(0, len(ids), 4):
        part = {i: vectors[i] for i in ids[start : start + 4]}
        expected |= average_linkage_reference(part, 0.6)
    assert set(cluster_vectors(vectors)) == expected == {tuple(ids[:4]), tuple(ids[4:8])}


def test_a_label_survives_while_most_of_its_core_survives():
    old = [
        Cluster(
            id="c_old",
            node_ids=("a", "b", "c", "d"),
            label="Cells",
            core=("a", "b", "c", "d"),
            label_source="model",
        )
    ]
    kept = carry_labels([("a", "b", "c", "x", "y")], old)  # 3 of 4 core members remain
    assert (kept[0].id, kept[0].label, kept[0].core) == ("c_old", "Cells", ("a", "b", "c", "d"))
    lost = carry_labels([("a", "b", "x", "y", "z")], old)  # only half the core: a new cluster
    assert lost[0].id != "c_old" and lost[0].label is None and lost[0].core == lost[0].node_ids
    split = carry_labels([("a", "b", "c"), ("d", "e")], old)
    assert [c.label for c in split] == ["Cells", None]
    assert needs_label(split[1], model_available=False)
    assert needs_label(split[0].model_copy(update={"label_source": "terms"}), model_available=True)
    assert not needs_label(split[0], model_available=True)


def test_a_cluster_is_named_by_its_most_central_topic_never_keywords():
    # Was: the distinctive words ("Mitochondria · DNA · ATP"). Now a human name: the member with
    # the most edges inside the cluster — here the note both headings hang under.
    texts = {"a": "Mitochondria", "b": "Mitochondria: Their DNA", "c": "Mitochondria: ATP",
             "d": "Glucose"}
    edges = [("b", "a"), ("c", "a"), ("a", "d")]
    assert central_name(["a", "b", "c"], texts, edges) == "Mitochondria"
    # A heading without its note in the cluster is named by the heading alone.
    assert central_name(["b", "c"], texts, [("b", "c")]) == "ATP"
    assert " · " not in central_name(["a", "b", "c", "d"], texts, edges)
    assert len(central_name(["x"], {"x": "word " * 40}, [])) <= MAX_NAME


def test_cluster_names_are_unique():
    texts = {"a": "Plugins: Settings", "b": "Plugins: Sync", "c": "Files: Settings",
             "d": "Files: Search", "e": "Themes: Settings", "f": "Themes: Sync"}
    clusters = [Cluster(id=f"c{i}", node_ids=ids, label="Settings", label_source="terms")
                for i, ids in enumerate([("a", "b"), ("c", "d"), ("e", "f")])]
    edges = [("a", "b"), ("c", "d"), ("e", "f")]
    labels = [c.label for c in unique_names(clusters, texts, edges)]
    assert len({label.casefold() for label in labels}) == 3
    assert labels == ["Settings — Plugins", "Settings — Files", "Settings — Themes"]


def test_layout_is_deterministic_finite_and_spreads_nodes():
    ids = [f"n{i}" for i in range(60)]
    edges = [(ids[i], ids[i // 2]) for i in range(1, 60)]
    first = settle_layout(ids, edges)
    assert first == settle_layout(list(reversed(ids)), edges)
    assert all(math.isfinite(p.x) and math.isfinite(p.y) for p in first.values())
    points = [(p.x, p.y) for p in first.values()]
    assert len(set(points)) == len(points)
    closest = min(math.dist(a, b) for i, a in enumerate(points) for b in points[i + 1 :])
    assert closest > 1.0


def test_warm_start_keeps_the_map_and_places_new_nodes_near_their_neighbours():
    ids = [f"n{i}" for i in range(80)]
    edges = [(ids[i], ids[i // 3]) for i in range(1, 80)]
    before = settle_layout(ids, edges)
    grown = settle_layout([*ids, "new"], [*edges, ("new", "n5")], before)
    unrelated = [i for i in ids if i != "n5"]
    assert all(grown[i] == before[i] for i in unrelated)  # untouched
    assert math.dist((grown["n5"].x, grown["n5"].y), (before["n5"].x, before["n5"].y)) < 30
    span = max(p.x for p in before.values()) - min(p.x for p in before.values())
    assert math.dist((grown["new"].x, grown["new"].y), (grown["n5"].x, grown["n5"].y)) < span / 4


def test_layout_ignores_bad_previous_positions_and_unknown_edges():
    got = settle_layout(
        ["a", "b"],
        [("a", "zz"), ("a", "a")],
        {"a": Position(x=float("nan"), y=0.0), "ghost": Position(x=1, y=1)},
    )
    assert set(got) == {"a", "b"}
    assert all(math.isfinite(p.x) for p in got.values())


def test_search_ranks_literal_matches_first_then_meaning():
    nodes = [
        ("n1", "Mitochondria produce ATP"),
        ("n2", "The powerhouse of the cell"),
        ("n3", "Glucose is a sugar"),
    ]
    vectors = {"n1": unit(1, 0.1, 0), "n2": unit(0.9, 0.2, 0), "n3": unit(0, 0, 1)}
    hits = search_nodes("powerhouse", nodes, query_vector=unit(1, 0, 0), vectors=vectors)
    assert [h.node_id for h in hits] == ["n2", "n1"]
    assert hits[0].match == "both" and hits[1].match == "semantic"
    text_only = search_nodes("sugar glucose", nodes)
    assert [(h.node_id, h.match) for h in text_only] == [("n3", "text")]
    assert search_nodes("nothing like it", nodes) == []


def test_graph_context_takes_the_nearest_under_a_token_budget():
    nodes = [
        ("a", "Mitochondria produce ATP", "solid"),
        ("b", "x " * 400, None),
        ("c", "Cells divide by mitosis", None),
        ("d", "Unrelated fact", None),
    ]
    vectors = {"a": unit(1, 0), "b": unit(0.99, 0.1), "c": unit(0.8, 0.6), "d": unit(0, 1)}
    chosen = select_context(unit(1, 0), nodes, vectors, k=5, token_budget=60)
    assert [c.node_id for c in chosen] == ["a", "c"]  # b does not fit, d is too far
    text = render_context("cell biology", chosen)
    assert "- Mitochondria produce ATP [solid]" in text and "Unrelated" not in text


def test_a_title_with_a_colon_of_its_own_names_its_cluster_whole():
    # Was "vertices and edges": a note's own title read as "Note: Heading". Only a prefix that
    # is a note of the graph (an older import's heading node) or shared by two members is one.
    texts = {"a": "Graph basics: vertices and edges", "b": "Adjacency lists"}
    assert central_name(["a"], texts, [("a", "b")]) == "Graph basics: vertices and edges"
    headings = {"x": "Plugins: Settings", "y": "Plugins: Sync"}
    assert central_name(["x", "y"], headings, [("x", "y")]) in {"Settings", "Sync"}
