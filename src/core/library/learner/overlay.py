"""The graph as the learner stands: a snapshot whose nodes' states and scores include the learner
ledgers' evidence (review grades, the teacher's observations) besides the graph's own trail, so
``GET /api/graph`` and ``GET /api/mastery`` never disagree about a node.

Only nodes with learner evidence are replaced; the others stay the fold's objects. A replaced
node is reused while its base node and its evidence are unchanged, so the graph route's warm
body (cached per node object) re-encodes only what really changed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from studyhall.core.library.graph.view import GraphSnapshot, SnapshotNode, signals_of
from studyhall.core.library.learner.mastery import Score, Signal, score


class LearnerNode(SnapshotNode):
    """A derived node with evidence from outside the graph ledgers folded into its score."""

    __slots__ = ("extra",)

    def __init__(self, base: SnapshotNode, extra: tuple[Signal, ...]) -> None:
        _, quiz, observations, _ = trail = base.rows()
        combined = score([*signals_of(quiz, observations), *extra])
        super().__init__(base.id, base.text, base.created_at, base.sources, combined.state,
                         combined.value, base.seq, base.created_id, trail)
        self.extra = extra
        self._score = combined

    @property
    def score(self) -> Score:
        assert self._score is not None  # set at construction
        return self._score


class LearnerOverlay:
    """Applies learner evidence to snapshots, keeping the nodes it built while they still hold."""

    def __init__(self) -> None:
        self._built: dict[str, tuple[SnapshotNode, LearnerNode]] = {}

    def apply(self, snapshot: GraphSnapshot,
              extra: Mapping[str, Sequence[Signal]]) -> GraphSnapshot:
        if not extra:
            self._built = {}
            return snapshot
        built: dict[str, tuple[SnapshotNode, LearnerNode]] = {}
        nodes: list[SnapshotNode] = []
        for node in snapshot.nodes:
            signals = extra.get(node.id)
            if not signals:
                nodes.append(node)
                continue
            kept = self._built.get(node.id)
            wanted = tuple(sorted(signals))
            if kept is None or kept[0] is not node or kept[1].extra != wanted:
                kept = (node, LearnerNode(node, wanted))
            built[node.id] = kept
            nodes.append(kept[1])
        self._built = built
        return dataclasses.replace(snapshot, nodes=tuple(nodes))
