"""A vault-shaped seeded graph for the home map's browser tests: topic nodes with human names in
named clusters laid out as regions, evidence counts that vary, links within and across
clusters, and learned nodes (solid, shaky, corrected) among many not tried."""

from __future__ import annotations

import math
import random
from datetime import UTC, datetime, timedelta
from typing import Any

from studyhall.core.contracts.graph import (
    Cluster,
    EdgeAdded,
    Evidence,
    Position,
    PropositionCreated,
    RunCheckpoint,
    UnderstandingObserved,
)

AREAS = ["Cell biology", "Graph theory", "Linear algebra", "Roman history", "Organic chemistry",
         "Music theory", "Probability", "Operating systems", "Plate tectonics", "Microeconomics",
         "Poetry forms", "Compilers", "Genetics", "Thermodynamics", "Medieval art", "Databases",
         "Neuroscience", "Number theory", "Climate", "Typography", "Statistics", "Networking",
         "Ecology", "Optics", "Ethics", "Calculus", "Cryptography", "Astronomy", "Linguistics",
         "Geometry", "Immunology", "Game theory", "Philosophy of mind", "Electronics",
         "Botany", "Sociology", "Topology", "Machine learning", "Architecture", "Oceanography",
         "Rhetoric", "Logic", "Anatomy", "Accounting", "Mythology", "Acoustics", "Paleontology",
         "Urban planning"]
WORDS = ["overview", "key ideas", "worked example", "definitions", "history", "open questions",
         "common mistakes", "proof sketch", "applications", "summary", "reading notes",
         "exercises", "glossary", "timeline", "comparison", "diagram notes"]


def seed_map_graph(graph_store: Any, n: int = 2400, *, clusters: int = 48, seed: int = 7) -> dict[str, str]:
    """``n`` topics in ``clusters`` named areas; returns {role: node id} for tests to aim at."""
    rng = random.Random(seed)
    at = datetime(2026, 1, 1, tzinfo=UTC)
    side = math.ceil(math.sqrt(clusters))
    records, positions, members = [], {}, [[] for _ in range(clusters)]
    for i in range(n):
        c = i % clusters
        j = i // clusters
        node = f"t{i:05d}"
        area = AREAS[c % len(AREAS)]
        title = f"{area}: {WORDS[j % len(WORDS)]}" + (f" {j // len(WORDS) + 1}" if j >= len(WORDS) else "")
        quotes = 1 + int(rng.paretovariate(1.4)) if j else 14  # the first topic of an area: its hub
        records.append(PropositionCreated(
            id=f"prop_{i}", node_id=node, text=title,
            evidence=tuple(Evidence(source_id="notes", message_id=f"m{i}_{q}",
                                    quote=f"A line from the note on {title.lower()} ({q + 1}).")
                           for q in range(min(quotes, 20))),
            source_id="notes", run_id="seed", at=at + timedelta(seconds=i)))
        angle = j * 2.399963
        r = 26.0 * math.sqrt(j + 0.5)
        positions[node] = Position(x=(c % side) * 1000 + math.cos(angle) * r + rng.uniform(-4, 4),
                                   y=(c // side) * 1000 + math.sin(angle) * r + rng.uniform(-4, 4))
        members[c].append(node)
    graph_store.append_propositions(records)
    levels = {0: ["solid"] * 4, 1: ["partial"], 2: ["misconception", "solid"]}
    observations = [
        UnderstandingObserved(id=f"obs_{i}_{k}", node_id=f"t{i:05d}", level=level,
                              source_id="notes", run_id="seed", at=at + timedelta(days=k + 1))
        for i in range(n) if rng.random() < 0.2
        for k, level in enumerate(levels[rng.randrange(3)])]
    graph_store.append_observations(observations)
    edges = []
    for c, group in enumerate(members):
        for k, node in enumerate(group[1:], start=1):
            edges.append((group[0] if k % 3 == 0 else group[rng.randrange(k)], node))
        if c:
            edges.append((members[c - 1][0], group[0]))  # areas link through their hubs
    graph_store.append_edges([EdgeAdded.model_validate({
        "id": f"edge_{e}", "from": a, "to": b, "relation": "follows", "source_id": "notes",
        "run_id": "seed", "at": at}) for e, (a, b) in enumerate(edges)])
    graph_store.append_checkpoint(RunCheckpoint(id="seed", source_id="notes", started_at=at,
                                                finished_at=at + timedelta(hours=1), propositions=n))
    graph_store.save_positions(positions)
    graph_store.save_clusters([Cluster(id=f"c{c}", node_ids=tuple(m), label=AREAS[c % len(AREAS)])
                               for c, m in enumerate(members)])
    return {"hub": members[5][0], "leaf": members[5][7]}
