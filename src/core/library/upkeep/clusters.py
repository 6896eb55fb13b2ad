"""Clusters: average-linkage agglomerative clustering of node vectors at cosine similarity ≥ 0.6,
with labels that survive re-clustering while most of their core survives.

Exact and deterministic. Every merge of average linkage joins two groups with at least one pair
above the threshold, so a final cluster lies inside one connected component of the "similarity
≥ threshold" graph: components are found first (blocked matrix products over the upper
triangle, never the whole square), then each is clustered by scipy's average linkage (its
nearest-neighbour chain, in C), cut where the next merge's average similarity falls below the
threshold. Only a component's condensed distances are ever held, so memory stays bounded by
``MAX_COMPONENT`` however many nodes the graph has.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt
from studyhall.core.contracts.graph import Cluster
from studyhall.core.contracts.search import VectorLike

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
    """Connected components: one pass of blocked products over the upper triangle, each block's
    pairs united at once by a vectorized union-find (hook the larger root under the smaller,
    then jump pointers)."""
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
        # Rows start… against columns start…: the pairs below the diagonal were seen already.
        near = x[start : start + _BLOCK] @ x[start:].T >= threshold
        # Flat then split: several times faster than a 2-D ``nonzero`` on a wide block.
        rows, cols = np.divmod(np.flatnonzero(near), near.shape[1])
        keep = cols > rows
        rows, cols = rows[keep] + start, cols[keep] + start
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


def _cosine_distances(x: Matrix) -> npt.NDArray[np.float64]:
    """Condensed ``1 - cosine`` of unit rows, as scipy's ``pdist`` orders it, filled by blocks of
    rows (BLAS products over the upper triangle; the square matrix is never held)."""
    m = x.shape[0]
    out = np.empty(m * (m - 1) // 2)
    at = 0
    for start in range(0, m, _BLOCK):
        block = x[start : start + _BLOCK] @ x[start:].T
        for k in range(block.shape[0]):
            row = block[k, k + 1 :]
            out[at : at + row.size] = row
            at += row.size
    # In float64, so that 1 - s ≤ 1 - t exactly when s ≥ t (both lie in [0.5, 2]).
    np.subtract(1.0, out, out=out)
    np.maximum(out, 0.0, out=out)  # a float32 cosine of 1.0000001 is no negative distance
    return out


def _average_linkage(x: Matrix, threshold: float) -> list[list[int]]:
    """Average linkage over one component, merging while the average similarity is ≥ the
    threshold (the linkage is monotone, so cutting its tree at that height is the same)."""
    from scipy.cluster.hierarchy import fcluster, linkage

    if x.shape[0] == 1:
        return [[0]]
    tree = linkage(_cosine_distances(x), method="average")
    labels = fcluster(tree, t=1.0 - threshold, criterion="distance")
    groups: dict[int, list[int]] = {}
    for i, label in enumerate(labels.tolist()):
        groups.setdefault(label, []).append(i)
    return list(groups.values())


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


MIN_GROUPS = 5  # the whole-graph zoom names 5–40 regions (issue 28): a small vault gets five too


def at_least(groups: Sequence[tuple[str, ...]], vectors: Mapping[str, VectorLike],
             minimum: int = MIN_GROUPS) -> list[tuple[str, ...]]:
    """``groups`` with more made when there are fewer than ``minimum`` (a small or very uniform
    vault, whose notes are too alike, or too unalike, for the threshold to part them): the nodes
    no group holds are grouped first, by average linkage cut into as many groups as are missing;
    then the largest group of three or more is halved the same way, until there are
    ``minimum`` or only pairs and single notes are left (a pair of alike notes stays one area).
    A group of one is allowed here: in a vault of three unlike notes each is its own region. Deterministic; the order is ``cluster_vectors``'s."""
    if len(groups) >= minimum or not vectors:
        return list(groups)
    ids = sorted(vectors)
    index = {node: i for i, node in enumerate(ids)}
    x = _unit(np.asarray([vectors[i] for i in ids], dtype=np.float32))
    out = [tuple(g) for g in groups]
    held = {node for g in groups for node in g}
    rest = [i for i, node in enumerate(ids) if node not in held][:MAX_COMPONENT]
    if rest:
        for part in _cut(x[rest], min(minimum - len(out), len(rest))):  # may be fewer (ties)
            out.append(tuple(sorted(ids[rest[k]] for k in part)))
    while len(out) < minimum:
        for group in sorted(out, key=lambda g: (-len(g), g)):
            if not 3 <= len(group) <= MAX_COMPONENT:
                continue  # a pair stays a pair: two alike notes are one area
            halves = _cut(x[[index[node] for node in group]], 2)
            if len(halves) < 2:  # all at one distance (identical notes): halve by id order
                halves = [list(range(len(group) // 2)), list(range(len(group) // 2, len(group)))]
            out.remove(group)
            out.extend(tuple(sorted(group[k] for k in half)) for half in halves)
            break
        else:
            break  # only pairs and single notes are left
    return sorted(out, key=lambda g: (-len(g), g))


def _cut(x: Matrix, k: int) -> list[list[int]]:
    """Rows of ``x`` in at most ``k`` groups: average linkage cut at ``k`` clusters."""
    from scipy.cluster.hierarchy import fcluster, linkage

    if x.shape[0] < 2 or k < 2:
        return [list(range(x.shape[0]))]
    labels = fcluster(linkage(_cosine_distances(x), method="average"), t=k, criterion="maxclust")
    groups: dict[int, list[int]] = {}
    for i, label in enumerate(labels.tolist()):
        groups.setdefault(label, []).append(i)
    return sorted(groups.values(), key=lambda g: g[0])


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
    """A new cluster always; one named without a model again every time (its central topic
    may have changed, and an older keyword label is replaced) or by the model once it can."""
    return cluster.label is None or cluster.label_source == "terms"
