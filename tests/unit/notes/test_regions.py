"""The whole-graph zoom's regions: at most ~40 of them however many clusters, linked clusters
joined first, each region named by its largest cluster."""

from __future__ import annotations

from studyhall.core.contracts.graph import Cluster
from studyhall.core.library.upkeep.regions import MAX_REGIONS, region_heads, with_regions


def clusters(count: int, size: int = 3) -> list[Cluster]:
    return [Cluster(id=f"c{i:03d}", node_ids=tuple(f"n{i}_{j}" for j in range(size)),
                    label=f"Topic {i}") for i in range(count)]


def test_hundreds_of_clusters_become_at_most_forty_regions():
    many = clusters(300)
    # Ten families of clusters linked among themselves; nothing links the families.
    edges = [(f"n{i}_0", f"n{i + 10}_1") for i in range(290)]
    heads = region_heads(many, edges)
    assert len(set(heads.values())) <= MAX_REGIONS
    assert set(heads) == {c.id for c in many}


def test_linked_clusters_join_before_unlinked_ones_and_the_largest_names_the_region():
    three = clusters(3)
    big = Cluster(id="c009", node_ids=("x1", "x2", "x3", "x4", "x5"), label="Big")
    edges = [("n0_0", "x1"), ("n0_1", "x2")]  # c000 links to the big one; c001, c002 do not
    heads = region_heads([*three, big], edges, max_regions=3)
    assert heads["c000"] == heads["c009"] == "c009"
    assert heads["c001"] == "c001" and heads["c002"] == "c002"
    regioned = with_regions([*three, big], edges, max_regions=3)
    assert [c.region for c in regioned] == ["c009", "c001", "c002", "c009"]


def test_few_clusters_are_their_own_regions():
    few = clusters(5)
    assert region_heads(few, []) == {c.id: c.id for c in few}
