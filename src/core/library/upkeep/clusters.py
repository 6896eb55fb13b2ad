"""Clusters: average-linkage agglomerative clustering of node vectors at cosine similarity ≥ 0.6,
with labels that survive re-clustering while most of their core survives.

Exact and deterministic. Every merge of average linkage joins two groups with at least one pair
above the threshold, so a final cluster lies inside one connected component of the "similarity
≥ threshold" graph: components are found first (blocked matrix products), then each is
clustered with the nearest-neighbour chain, which for a reducible linkage such as the average
gives the same partition as the greedy algorithm in O(m²).
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt
from studyhall.core.contracts.graph import Cluster
from studyhall.core.library.extraction.nearest import words
from studyhall.core.library.upkeep.vector_cache import VectorLike

THRESHOLD = 0.6
MIN_SIZE = 2
MAX_COMPONENT = 6000  # beyond this a component is clustered in id-ordered slices (memory bound)
_BLOCK = 512

Matrix = npt.NDArray[np.float32]


def _unit(matrix: Matrix) -> Matrix:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    out: Matrix = (matrix / norms).astype(np.float32)
    return out


def _components(x: Matrix, threshold: float) -> list[list[int]]:
    """Connected components: one pass of blocked products, each block's pairs united at once
    by a vectorized union-find (hook the larger root under the smaller, then jump pointers)."""
    n = x.shape[0]
    parent = np.arange(n, dtype=np.int64)

    def compress() -> None:
        nonlocal parent
        while True:
            jumped = parent[parent]
            if np.array_equal(jumped, parent):
                return
            parent = jumped

    for start in range(0, n, _BLOCK):
        rows, cols = np.nonzero(x[start : start + _BLOCK] @ x.T >= threshold)
        rows = rows + start
        keep = cols > rows
        rows, cols = rows[keep], cols[keep]
        while rows.size:
            compress()
            a, b = parent[rows], parent[cols]
            apart = a != b
            if not apart.any():
                break
            a, b = a[apart], b[apart]
            np.minimum.at(parent, np.maximum(a, b), np.minimum(a, b))
            rows, cols = rows[apart], cols[apart]
    compress()
    groups: dict[int, list[int]] = {}
    for i, root in enumerate(parent.tolist()):
        groups.setdefault(root, []).append(i)
    return sorted(groups.values(), key=lambda g: g[0])


def _average_linkage(x: Matrix, threshold: float) -> list[list[int]]:
    """Nearest-neighbour chain over one component; merges stop below the threshold."""
    m = x.shape[0]
    if m == 1:
        return [[0]]
    sim = (x @ x.T).astype(np.float64)
    np.fill_diagonal(sim, -np.inf)
    size = np.ones(m)
    members: dict[int, list[int]] = {i: [i] for i in range(m)}
    active = np.ones(m, dtype=bool)
    done: list[list[int]] = []
    chain: list[int] = []
    while active.sum() > 1:
        if not chain:
            chain.append(int(np.flatnonzero(active)[0]))
        a = chain[-1]
        row = np.where(active, sim[a], -np.inf)
        b = int(np.argmax(row))
        # Ties go to the previous chain element, so the chain always ends in a reciprocal pair.
        if len(chain) > 1 and row[chain[-2]] >= row[b]:
            b = chain[-2]
        if len(chain) < 2 or b != chain[-2]:
            chain.append(b)
            continue
        chain.pop()
        chain.pop()
        if sim[a, b] < threshold:
            # Reciprocal nearest neighbours below the threshold: neither can ever join anything
            # at or above it (an average never exceeds its largest term). Both are final.
            for i in (a, b):
                active[i] = False
                done.append(members.pop(i))
            continue
        keep, gone = min(a, b), max(a, b)
        merged = (size[keep] * sim[keep] + size[gone] * sim[gone]) / (size[keep] + size[gone])
        sim[keep, :] = merged
        sim[:, keep] = merged
        sim[keep, keep] = -np.inf
        sim[gone, :] = -np.inf
        sim[:, gone] = -np.inf
        size[keep] += size[gone]
        active[gone] = False
        members[keep].extend(members.pop(gone))
    done.extend(members.values())
    return done


def cluster_vectors(
    vectors: Mapping[str, VectorLike], threshold: float = THRESHOLD
) -> list[tuple[str, ...]]:
    """Groups of node ids (each sorted, size ≥ 2), in a deterministic order."""
    ids = sorted(vectors)
    if len(ids) < MIN_SIZE:
        return []
    x = _unit(np.asarray([vectors[i] for i in ids], dtype=np.float32))
    groups: list[tuple[str, ...]] = []
    for component in _components(x, threshold):
        if len(component) < MIN_SIZE:
            continue
        for start in range(0, len(component), MAX_COMPONENT):
            part = component[start : start + MAX_COMPONENT]
            for local in _average_linkage(x[part], threshold):
                if len(local) >= MIN_SIZE:
                    groups.append(tuple(sorted(ids[part[k]] for k in local)))
    return sorted(groups, key=lambda g: (-len(g), g))


def cluster_id(members: Sequence[str]) -> str:
    digest = hashlib.sha256("\x1f".join(sorted(members)).encode("utf-8")).hexdigest()
    return f"c_{digest[:12]}"


def carry_labels(groups: Sequence[tuple[str, ...]], previous: Sequence[Cluster]) -> list[Cluster]:
    """New clusters, each inheriting the id, label and core of a previous cluster when more than
    half of that cluster's core is among its members (each previous cluster passes on once, to
    the group holding most of its core). Others are new: fresh id, no label, core = members."""
    claimed: dict[int, Cluster] = {}
    order = sorted(previous, key=lambda c: (-len(c.core or c.node_ids), c.id))
    for old in order:
        core = set(old.core or old.node_ids)
        if not core:
            continue
        best, overlap = -1, 0
        for i, group in enumerate(groups):
            if i in claimed:
                continue
            shared = len(core.intersection(group))
            if shared > overlap:
                best, overlap = i, shared
        if best >= 0 and overlap * 2 > len(core):
            claimed[best] = old
    out: list[Cluster] = []
    for i, group in enumerate(groups):
        heir = claimed.get(i)
        if heir is not None:
            out.append(
                Cluster(
                    id=heir.id,
                    node_ids=group,
                    label=heir.label,
                    core=heir.core or heir.node_ids,
                    label_source=heir.label_source,
                )
            )
        else:
            out.append(Cluster(id=cluster_id(group), node_ids=group, core=group))
    return out


def needs_label(cluster: Cluster, model_available: bool) -> bool:
    """A new cluster always; one named from its terms once a model can name it."""
    return cluster.label is None or (model_available and cluster.label_source == "terms")


class TermLabeler:
    """Labels with no model: the words most distinctive of a cluster (frequent inside it, rare
    in the whole graph), in their most common spelling. Graph-wide counts are made once."""

    def __init__(self, texts: Mapping[str, str]) -> None:
        self._texts = texts
        self._everywhere: Counter[str] = Counter()
        for text in texts.values():
            self._everywhere.update(words(text))
        self._total = max(len(texts), 1)

    def label(self, members: Sequence[str], top: int = 3) -> str:
        inside: Counter[str] = Counter()
        spelled: dict[str, Counter[str]] = {}
        for node in members:
            text = self._texts.get(node, "")
            inside.update(words(text))
            for raw in text.replace("/", " ").split():
                token = raw.strip(".,;:!?()[]{}\"'`*_")
                if token:
                    spelled.setdefault(token.casefold(), Counter())[token] += 1
        scored = sorted(
            (
                (count * math.log(1 + self._total / self._everywhere.get(w, 1)), w)
                for w, count in inside.items()
                if not w.isdigit()
            ),
            key=lambda item: (-item[0], item[1]),
        )
        chosen = [spelled.get(w, Counter({w: 1})).most_common(1)[0][0] for _, w in scored[:top]]
        return " · ".join(chosen) if chosen else "Untitled cluster"


def term_label(members: Sequence[str], texts: Mapping[str, str], top: int = 3) -> str:
    return TermLabeler(texts).label(members, top)
