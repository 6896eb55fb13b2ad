"""A big seeded graph for the renderer and settings browser tests: propositions in blobs with
positions, understanding evidence, edges, a checkpoint and clusters."""

from __future__ import annotations

import math
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


def seed_vault_graph(graph_store: Any, notes: int, *, ideas: int = 3, clusters: int = 40) -> None:
    """A vault's map at scale: ``notes`` note topics (each its own source, quoting its title)
    in ``clusters`` blobs, linked every third, each with ``ideas`` ideas (``supports`` edges
    into it) laid out beside it, as a model's extraction would leave them."""
    at = datetime(2026, 1, 1, tzinfo=UTC)
    records, edges, positions, members = [], [], {}, [[] for _ in range(clusters)]
    side = math.ceil(math.sqrt(clusters))
    for i in range(notes):
        c, src, topic = i % clusters, f"note{i:05d}", f"t{i:05d}"
        title = f"Note {i} about area {c}"
        records.append(PropositionCreated(
            id=f"prop_{topic}", node_id=topic, text=title, source_id=src, run_id="seed",
            evidence=(Evidence(source_id=src, message_id=f"{src}#", quote=f"# {title}"),),
            at=at + timedelta(seconds=i)))
        angle, r = (i // clusters) * 2.399963, 9.0 * math.sqrt(i // clusters + 1)
        x, y = (c % side) * 900 + math.cos(angle) * r * 3, (c // side) * 900 + math.sin(angle) * r * 3
        positions[topic] = Position(x=x, y=y)
        members[c].append(topic)
        for j in range(ideas):
            idea = f"i{i:05d}_{j}"
            records.append(PropositionCreated(
                id=f"prop_{idea}", node_id=idea, text=f"Idea {j} of note {i}: a claim it makes",
                source_id=src, run_id="seed", at=at + timedelta(seconds=i),
                evidence=(Evidence(source_id=src, message_id=f"{src}#Part {j}",
                                   quote=f"A claim {j} the note makes"),)))
            edges.append(EdgeAdded.model_validate({
                "id": f"edge_{idea}", "from": idea, "to": topic, "relation": "supports",
                "source_id": src, "run_id": "seed", "at": at}))
            positions[idea] = Position(x=x + math.cos(j * 2.1) * 6, y=y + math.sin(j * 2.1) * 6)
            members[c].append(idea)
    edges += [EdgeAdded.model_validate({
        "id": f"link_{i}", "from": f"t{i:05d}", "to": f"t{i + clusters:05d}", "relation": "follows",
        "source_id": "notes", "run_id": "seed", "at": at}) for i in range(0, notes - clusters, 3)]
    graph_store.append_propositions(records)
    graph_store.append_edges(edges)
    graph_store.append_checkpoint(RunCheckpoint(id="seed", source_id="notes", started_at=at,
                                                finished_at=at + timedelta(hours=1),
                                                propositions=len(records)))
    graph_store.save_positions(positions)
    graph_store.save_clusters([Cluster(id=f"c{c}", node_ids=tuple(m), label=f"Area {c}")
                               for c, m in enumerate(members)])
