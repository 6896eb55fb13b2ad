"""Stand-ins for the browser tests: a small word-hashing embedder (no torch), a gate to hold an
import mid-way, an extractor that cites what it was actually shown, and fixture builders."""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
import math
import re
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from studyhall.core.contracts.chat import Usage
from studyhall.core.contracts.graph import (
    Cluster,
    EdgeAdded,
    Evidence,
    Position,
    PropositionCreated,
    RunCheckpoint,
    UnderstandingObserved,
)
from studyhall.core.contracts.models import (
    FinishEvent,
    ModelEvent,
    ModelRequest,
    TextDelta,
    UsageEvent,
)

DIMS = 64
_WORD = re.compile(r"[a-z]{3,}")


class WordEmbedder:
    """Bag of hashed words, unit length: texts sharing words land close together, so clusters
    form; ``gate`` (an asyncio.Event) holds every call until a test releases it."""

    model_id = "test/word-hash"

    def __init__(self) -> None:
        self.gate: asyncio.Event | None = None
        self.calls = 0

    async def embed(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        self.calls += 1
        if self.gate is not None:
            await self.gate.wait()
        return [_vector(t) for t in texts]


def _vector(text: str) -> tuple[float, ...]:
    v = [0.0] * DIMS
    for word in _WORD.findall(text.lower()):
        v[int(hashlib.sha1(word.encode()).hexdigest(), 16) % DIMS] += 1.0
    norm = math.sqrt(sum(x * x for x in v)) or 1.0
    return tuple(x / norm for x in v) if any(v) else tuple([1.0] + [0.0] * (DIMS - 1))


class CitingExtractor:
    """Wraps the scripted model: the extractor and auditor roles answer from the batch they were
    given (one proposition per teacher line, quoted verbatim), every other role is untouched."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.keys: list[str] = []

    def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        if request.role == "extractor":
            return self._answer(self._extract(request))
        if request.role == "auditor":
            return self._answer({"verdicts": [{"key": k, "keep": True, "reason": "quoted"}
                                              for k in self.keys]})
        return self.inner.stream(request)

    def _extract(self, request: ModelRequest) -> dict[str, Any]:
        text = "\n".join(str(m.get("content", "")) for m in request.messages)
        propositions = []
        for block in re.split(r"\n(?=### message )", text):
            head = re.match(r"### message (\S+) · (\w+)", block.strip())
            if not head or head.group(2) not in ("teacher", "prober"):
                continue
            for line in block.splitlines()[1:]:
                body = line.split(" | ", 1)[-1].strip()
                if len(body) >= 12 and not body.startswith(("[", "{")):
                    key = f"p{len(propositions) + 1}"
                    propositions.append({"key": key, "text": body.rstrip("."),
                                         "evidence": [{"message_id": head.group(1), "quote": body}],
                                         "understanding": "solid" if key == "p1" else "partial"})
        self.keys = [p["key"] for p in propositions]
        edges = [{"from": a["key"], "to": b["key"], "kind": "follows"}
                 for a, b in itertools.pairwise(propositions)]
        return {"propositions": propositions, "edges": edges}

    async def _answer(self, value: dict[str, Any]) -> AsyncIterator[ModelEvent]:
        yield TextDelta(json.dumps(value))
        yield UsageEvent(Usage(input_tokens=200, output_tokens=80, cost_usd=0.0012))
        yield FinishEvent("stop")


def write_vault(root: Path) -> Path:
    """A small Obsidian-style vault: headings, links between notes, a broken link."""
    notes = {
        "Graphs.md": "# Graphs\n\nA graph is a set of vertices joined by edges.\n\n"
                     "## Degree\n\nThe degree of a vertex counts the edges that touch it.\n\n"
                     "See [[Trees]] and [[Paths]].\n",
        "Trees.md": "# Trees\n\nA tree is a connected graph with no cycles.\n\n"
                    "A tree on n vertices has exactly n-1 edges.\n\nBuilds on [[Graphs]].\n",
        "Paths.md": "# Paths\n\nA path is a walk that never repeats a vertex.\n\n"
                    "Two vertices are connected when some path joins them. [[Missing note]]\n",
        "Biology/Cells.md": "# Cells\n\nThe cell is the basic unit of life.\n\n"
                            "Mitochondria make most of the cell's energy as ATP.\n",
        "Biology/Respiration.md": "# Respiration\n\nCellular respiration turns glucose into ATP "
                                  "in the mitochondria.\n\nIt needs oxygen. See [[Cells]].\n",
    }
    for name, text in notes.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (root / ".obsidian").mkdir(exist_ok=True)
    return root


def seed_big_graph(graph_store: Any, n: int, *, clusters: int = 40) -> None:
    """``n`` propositions in ``clusters`` blobs with positions, for the renderer's speed test."""
    at = datetime(2026, 1, 1, tzinfo=UTC)
    records, positions, members = [], {}, [[] for _ in range(clusters)]
    side = math.ceil(math.sqrt(clusters))
    for i in range(n):
        c = i % clusters
        node = f"n{i:05d}"
        records.append(PropositionCreated(
            id=f"prop_{i}", node_id=node, text=f"Proposition {i} about topic {c}: a fact worth knowing",
            evidence=(Evidence(source_id="notes", message_id=f"m{i}", quote=f"fact {i}"),),
            source_id="notes", run_id="seed", at=at + timedelta(seconds=i)))
        angle = (i // clusters) * 2.399963
        r = 9.0 * math.sqrt(i // clusters + 1)
        positions[node] = Position(x=(c % side) * 900 + math.cos(angle) * r * 3,
                                   y=(c // side) * 900 + math.sin(angle) * r * 3)
        members[c].append(node)
    graph_store.append_propositions(records)
    # Some understanding evidence, so every state shows: solid, shaky, corrected, not tried.
    levels = {0: ["solid"], 1: ["partial"], 2: ["misconception", "solid"]}
    observations = [
        UnderstandingObserved(id=f"obs_{i}_{k}", node_id=f"n{i:05d}", level=level,
                              source_id="notes", run_id="seed", at=at + timedelta(days=k + 1))
        for i in range(n) for k, level in enumerate(levels.get(i % 5, []))]
    graph_store.append_observations(observations)
    # A chain of "follows" edges inside each cluster, every third node.
    edges = [EdgeAdded.model_validate({
        "id": f"edge_{i}", "from": f"n{i:05d}", "to": f"n{i + clusters:05d}",
        "relation": "follows", "source_id": "notes", "run_id": "seed", "at": at})
        for i in range(0, n - clusters, 3)]
    graph_store.append_edges(edges)
    # A run counts only once its checkpoint is written (the merger writes it last).
    graph_store.append_checkpoint(RunCheckpoint(id="seed", source_id="notes", started_at=at,
                                                finished_at=at + timedelta(hours=1),
                                                propositions=n))
    graph_store.save_positions(positions)
    graph_store.save_clusters([Cluster(id=f"c{c}", node_ids=tuple(m), label=f"Topic {c}")
                               for c, m in enumerate(members)])
