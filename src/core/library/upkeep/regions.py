"""Regions: the whole-graph zoom's coarser partition — clusters joined into at most ~40 areas.

A vault of hundreds of notes has hundreds of clusters; at whole-graph zoom the learner needs a
map of a few dozen named areas. Clusters are joined pairwise, densest link first: the pair with
the most edges between them per (size × size) of nodes — topics that link to each other belong
to one area. When no two remaining regions are linked, the two smallest are joined. Each
cluster then names its region by ``region``: the id of the region's largest cluster, whose label
is the region's name. Deterministic: ties go to the smaller ids.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Iterable, Sequence

from studyhall.core.contracts.graph import Cluster

MAX_REGIONS = 40


def region_heads(clusters: Sequence[Cluster], edges: Iterable[tuple[str, str]],
                 max_regions: int = MAX_REGIONS) -> dict[str, str]:
    """Cluster id -> the id of the cluster heading its region."""
    size = {c.id: len(c.node_ids) for c in clusters}  # per region (merged as regions join)
    own = dict(size)  # per cluster
    of = {n: c.id for c in clusters for n in c.node_ids}
    links: dict[str, Counter[str]] = {c.id: Counter() for c in clusters}
    for source, target in edges:
        a, b = of.get(source), of.get(target)
        if a is not None and b is not None and a != b:
            links[a][b] += 1
            links[b][a] += 1
    head = {c.id: c.id for c in clusters}  # region id -> its head (largest cluster)
    members = {c.id: [c.id] for c in clusters}

    def density(a: str, b: str) -> float:
        return links[a][b] / (size[a] * size[b])

    heap = [(-density(a, b), a, b) for a in links for b in links[a] if a < b]
    heapq.heapify(heap)
    while len(members) > max_regions:
        pair = None
        while heap:
            neg, a, b = heapq.heappop(heap)
            if a in members and b in members and b in links[a]:
                if -neg == density(a, b):
                    pair = (a, b)
                    break
                heapq.heappush(heap, (-density(a, b), a, b))  # stale: its weight moved
        if pair is None:  # nothing linked is left: the two smallest regions join
            a, b = sorted(members, key=lambda r: (size[r], r))[:2]
            pair = (a, b)
        keep, gone = sorted(pair, key=lambda r: (-size[r], r))
        size[keep] += size.pop(gone)
        members[keep] += members.pop(gone)
        if (own[head[gone]], head[keep]) > (own[head[keep]], head[gone]):
            head[keep] = head[gone]
        head.pop(gone)
        for other, weight in links.pop(gone).items():
            links[other].pop(gone, None)
            if other != keep:
                links[keep][other] += weight
                links[other][keep] += weight
        links[keep].pop(gone, None)
        for other in links[keep]:
            x, y = min(keep, other), max(keep, other)
            heapq.heappush(heap, (-density(x, y), x, y))
    return {c: head[region] for region, ids in members.items() for c in ids}


def with_regions(clusters: Sequence[Cluster], edges: Sequence[tuple[str, str]],
                 max_regions: int = MAX_REGIONS) -> list[Cluster]:
    heads = region_heads(clusters, edges, max_regions)
    return [c if c.region == heads[c.id] else c.model_copy(update={"region": heads[c.id]})
            for c in clusters]
