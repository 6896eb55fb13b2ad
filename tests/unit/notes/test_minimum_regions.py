"""A small or very uniform vault still gets five regions at whole-graph zoom (issue 28: 5–40):
``at_least`` makes groups of what the threshold left apart, then halves the largest."""

from __future__ import annotations

import numpy as np
from studyhall.core.contracts.graph import Cluster
from studyhall.core.library.upkeep.clusters import MIN_GROUPS, at_least, cluster_vectors
from studyhall.core.library.upkeep.regions import region_heads


def _alike(count: int, seed: int = 0) -> dict[str, list[float]]:
    """``count`` near-identical vectors: the threshold puts them all in one cluster."""
    rng = np.random.default_rng(seed)
    base = rng.normal(size=32)
    return {f"n{i}": (base + 0.01 * rng.normal(size=32)).tolist() for i in range(count)}


def _apart(count: int, seed: int = 1) -> dict[str, list[float]]:
    """``count`` unrelated vectors: the threshold clusters none of them."""
    rng = np.random.default_rng(seed)
    return {f"m{i}": rng.normal(size=32).tolist() for i in range(count)}


def test_ten_notes_in_one_clump_become_five_groups():
    vectors = _alike(10)
    groups = cluster_vectors(vectors)
    assert len(groups) == 1  # what the threshold alone gives: one region for the whole vault
    more = at_least(groups, vectors)
    assert len(more) == MIN_GROUPS
    assert sorted(n for g in more for n in g) == sorted(vectors)  # every node in one group
    assert len({n for g in more for n in g}) == sum(len(g) for g in more)


def test_notes_the_threshold_leaves_apart_are_grouped_too():
    vectors = _apart(12)
    assert cluster_vectors(vectors) == []
    more = at_least([], vectors)
    assert len(more) == MIN_GROUPS and sum(len(g) for g in more) == 12


def test_three_notes_are_three_regions_and_none_is_made_up():
    vectors = _apart(3)
    assert sorted(at_least(cluster_vectors(vectors), vectors)) == [("m0",), ("m1",), ("m2",)]
    assert at_least([], {}) == []


def test_a_pair_of_alike_notes_is_never_split_to_make_up_the_count():
    vectors = {**_alike(2), **_apart(1)}
    groups = at_least(cluster_vectors(vectors), vectors)
    assert sorted(groups) == [("m0",), ("n0", "n1")]


def test_enough_groups_are_left_alone_and_the_result_is_deterministic():
    vectors = {**_alike(6, seed=2), **_apart(4)}
    groups = [("n0", "n1"), ("n2", "n3"), ("n4", "n5"), ("m0", "m1"), ("m2", "m3")]
    assert at_least(groups, vectors) == groups
    clump = _alike(9, seed=3)
    first = at_least(cluster_vectors(clump), clump)
    assert first == at_least(cluster_vectors(clump), clump)


def test_five_groups_stay_five_regions():
    vectors = _alike(10)
    groups = at_least(cluster_vectors(vectors), vectors)
    clusters = [Cluster(id=f"c{i}", node_ids=g) for i, g in enumerate(groups)]
    heads = region_heads(clusters, [("n0", "n1")])
    assert len(set(heads.values())) == len(clusters) >= MIN_GROUPS
