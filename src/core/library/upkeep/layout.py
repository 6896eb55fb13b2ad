"""Force layout of the graph (d3-force's model), warm-started so a grown graph settles in place.

Forces per tick, scaled by a cooling ``alpha``: many-body repulsion (exact up to ``EXACT_MAX``
nodes; above, exact inside a grid cell and cell centroids beyond), spring links, a weak pull to
the centre; velocities decay. A fresh layout starts nodes on a spiral in breadth-first order
(linked nodes start near each other). A warm start keeps every placed node where it is except
the neighbours of new nodes, which may drift a little; new nodes start by their neighbours.
Deterministic: no randomness, offsets come from hashes of node ids.
"""

from __future__ import annotations

import hashlib
import math
from collections import deque
from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt
from studyhall.core.contracts.graph import Position

LINK_DISTANCE = 30.0
CHARGE = -30.0
CENTRE = 0.02
VELOCITY_DECAY = 0.6
EXACT_MAX = 1000
NEIGHBOUR_MOBILITY = 0.1
WARM_ALPHA = 0.3
GRID = 16  # cells per side for the far field of large graphs
_CHUNK = 1024

Array = npt.NDArray[np.float64]
Index = npt.NDArray[np.int64]


def _hash_unit(node_id: str) -> tuple[float, float]:
    digest = hashlib.sha256(node_id.encode("utf-8")).digest()
    return (int.from_bytes(digest[:4], "big") / 2**32, int.from_bytes(digest[4:8], "big") / 2**32)


def _spiral(i: int) -> tuple[float, float]:
    radius = 10.0 * math.sqrt(0.5 + i)
    angle = i * math.pi * (3 - math.sqrt(5))
    return radius * math.cos(angle), radius * math.sin(angle)


def _bfs_order(n: int, adjacency: list[list[int]]) -> list[int]:
    seen = [False] * n
    order: list[int] = []
    for root in range(n):
        if seen[root]:
            continue
        seen[root] = True
        queue = deque([root])
        while queue:
            i = queue.popleft()
            order.append(i)
            for j in adjacency[i]:
                if not seen[j]:
                    seen[j] = True
                    queue.append(j)
    return order


def _start(
    ids: Sequence[str], adjacency: list[list[int]], previous: Mapping[str, Position]
) -> tuple[Array, Array]:
    n = len(ids)
    pos = np.zeros((n, 2))
    placed = np.zeros(n, dtype=bool)
    for i, node in enumerate(ids):
        p = previous.get(node)
        if p is not None and math.isfinite(p.x) and math.isfinite(p.y):
            pos[i] = (p.x, p.y)
            placed[i] = True
    mobility = np.ones(n)
    if not placed.any():
        for k, i in enumerate(_bfs_order(n, adjacency)):
            pos[i] = _spiral(k)
        return pos, mobility
    mobility[placed] = 0.0
    centre = pos[placed].mean(axis=0)
    radius = float(np.sqrt(((pos[placed] - centre) ** 2).sum(axis=1)).max())
    pending = [i for i in range(n) if not placed[i]]
    # New nodes next to placed ones first, then nodes next to those, and so on.
    while pending:
        progress = False
        later: list[int] = []
        for i in pending:
            anchors = [j for j in adjacency[i] if placed[j]]
            if not anchors:
                later.append(i)
                continue
            a, b = _hash_unit(ids[i])
            angle, dist = a * 2 * math.pi, LINK_DISTANCE * (0.5 + b)
            pos[i] = pos[anchors].mean(axis=0) + dist * np.array([math.cos(angle), math.sin(angle)])
            for j in anchors:
                if mobility[j] == 0.0:
                    mobility[j] = NEIGHBOUR_MOBILITY
            placed[i] = True
            progress = True
        if not progress:
            for i in later:  # unlinked new nodes: just outside the current layout
                a, b = _hash_unit(ids[i])
                angle, dist = a * 2 * math.pi, radius + LINK_DISTANCE * (1 + 2 * b)
                pos[i] = centre + dist * np.array([math.cos(angle), math.sin(angle)])
                placed[i] = True
            break
        pending = later
    return pos, mobility


def _charge_exact(pos: Array, rows: Index) -> Array:
    """Σ_j (x_j - x_i) · CHARGE / d²_ij for each row i, through matrix products."""
    out = np.zeros((rows.size, 2))
    sq = (pos**2).sum(axis=1)
    for start in range(0, rows.size, _CHUNK):
        chunk = rows[start : start + _CHUNK]
        p = pos[chunk]
        d2 = np.maximum(sq[chunk][:, None] + sq[None, :] - 2.0 * (p @ pos.T), 0.0) + 1.0
        w = CHARGE / d2
        w[np.arange(chunk.size), chunk] = 0.0
        out[start : start + _CHUNK] = w @ pos - p * w.sum(axis=1)[:, None]
    return out


def _charge_grid(pos: Array, rows: Index) -> Array:
    """Exact inside a node's grid cell, each other cell as one node at its centroid."""
    lo = pos.min(axis=0)
    side = max(float((pos.max(axis=0) - lo).max()) / GRID, LINK_DISTANCE)
    cell_xy = np.floor((pos - lo) / side).astype(np.int64)
    keys = cell_xy[:, 0] * (GRID + 1) + cell_xy[:, 1]
    uniq, cell, counts = np.unique(keys, return_inverse=True, return_counts=True)
    centroid = np.zeros((uniq.size, 2))
    np.add.at(centroid, cell, pos)
    centroid /= counts[:, None]
    out = np.zeros((rows.size, 2))
    csq = (centroid**2).sum(axis=1)
    for start in range(0, rows.size, _CHUNK):
        chunk = rows[start : start + _CHUNK]
        p = pos[chunk]
        d2 = (
            np.maximum((p**2).sum(axis=1)[:, None] + csq[None, :] - 2.0 * (p @ centroid.T), 0.0)
            + 1.0
        )
        w = CHARGE * counts[None, :] / d2
        w[np.arange(chunk.size), cell[chunk]] = 0.0  # the own cell is done exactly below
        out[start : start + _CHUNK] = w @ centroid - p * w.sum(axis=1)[:, None]
    where = {int(i): k for k, i in enumerate(rows.tolist())}
    order = np.argsort(cell, kind="stable")
    bounds = np.concatenate(([0], np.cumsum(np.bincount(cell, minlength=uniq.size))))
    for c in np.unique(cell[rows]).tolist():
        members = order[bounds[c] : bounds[c + 1]]
        mine = np.array([i for i in members.tolist() if i in where], dtype=np.int64)
        q = pos[members]
        d = q[None, :, :] - pos[mine][:, None, :]
        w = CHARGE / ((d**2).sum(axis=2) + 1.0)
        out[[where[i] for i in mine.tolist()]] += (d * w[:, :, None]).sum(axis=1)
    return out


def settle_layout(
    node_ids: Sequence[str],
    edges: Sequence[tuple[str, str]],
    previous: Mapping[str, Position] | None = None,
    iterations: int | None = None,
) -> dict[str, Position]:
    """Positions for every node. Nodes already in ``previous`` keep their place unless a new
    node hangs off them; with no previous positions the whole graph is laid out."""
    ids = sorted(set(node_ids))
    if not ids:
        return {}
    n = len(ids)
    index = {node: i for i, node in enumerate(ids)}
    pairs = sorted(
        {
            (min(index[a], index[b]), max(index[a], index[b]))
            for a, b in edges
            if a in index and b in index and a != b
        }
    )
    adjacency: list[list[int]] = [[] for _ in range(n)]
    for a, b in pairs:
        adjacency[a].append(b)
        adjacency[b].append(a)
    pos, mobility = _start(ids, adjacency, previous or {})
    rows = np.flatnonzero(mobility > 0).astype(np.int64)
    warm = bool((mobility == 0).any())
    if rows.size and (iterations is None or iterations > 0):
        _simulate(pos, mobility, rows, pairs, adjacency, warm, iterations)
    pos = np.nan_to_num(pos, nan=0.0, posinf=0.0, neginf=0.0)
    return {
        node: Position(x=round(float(pos[i, 0]), 2), y=round(float(pos[i, 1]), 2))
        for node, i in index.items()
    }


def _simulate(
    pos: Array,
    mobility: Array,
    rows: Index,
    pairs: list[tuple[int, int]],
    adjacency: list[list[int]],
    warm: bool,
    iterations: int | None,
) -> None:
    n = pos.shape[0]
    if iterations is None:
        iterations = 300 if n <= 300 else 150 if n <= EXACT_MAX else 60
    alpha = WARM_ALPHA if warm else 1.0
    decay = 1 - 0.001 ** (1 / iterations)
    degree = np.array([max(len(a), 1) for a in adjacency], dtype=np.float64)
    src = np.array([a for a, _ in pairs], dtype=np.int64)
    dst = np.array([b for _, b in pairs], dtype=np.int64)
    strength = 1.0 / np.minimum(degree[src], degree[dst]) if src.size else np.zeros(0)
    bias = degree[src] / (degree[src] + degree[dst]) if src.size else np.zeros(0)
    charge = _charge_exact if n <= EXACT_MAX else _charge_grid
    vel = np.zeros_like(pos)
    for _ in range(iterations):
        alpha -= alpha * decay
        if src.size:
            delta = (pos[dst] + vel[dst]) - (pos[src] + vel[src])
            dist = np.sqrt((delta**2).sum(axis=1)) + 1e-9
            pull = delta * ((dist - LINK_DISTANCE) / dist * alpha * strength)[:, None]
            np.add.at(vel, dst, -pull * bias[:, None])
            np.add.at(vel, src, pull * (1 - bias)[:, None])
        vel[rows] += charge(pos, rows) * alpha
        if not warm:
            vel -= pos * CENTRE * alpha
        vel *= VELOCITY_DECAY
        pos += vel * mobility[:, None]
        vel *= mobility[:, None] > 0  # pinned nodes do not accumulate velocity
