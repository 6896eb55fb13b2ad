"""The derived graph in interchange formats (named so it is not taken for the learner-facing
exports of ``core/library/export/``): the JSON shape of ``GET /api/graph`` and ``graph export``, and
GraphML (valid XML 1.0: text escaped, characters XML cannot carry removed)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from studyhall.core.library.graph.snapshot import GraphSnapshot, SnapshotNode
from studyhall.core.library.learner.mastery import Gate, gate, prerequisites

# XML 1.0 allows tab, LF, CR and everything from U+0020 except surrogates and U+FFFE/U+FFFF.
_XML_INVALID = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def node_head(node: SnapshotNode) -> dict[str, Any]:
    """A node's own part of its dict: everything that depends on the node alone."""
    # Built from the trail's rows, not its entry views: a big graph has ~5 trail rows a node.
    evidence, quiz, observations, _ = node.rows()
    score = node.score
    iso = datetime.isoformat
    return {
        "id": node.id,
        "text": node.text,
        "state": node.state,
        "score": score.value,
        "explanation": list(score.explanation),
        "created_at": iso(node.created_at),
        "sources": list(node.sources),
        "evidence": [
            {"source_id": e[0], "message_id": e[1], "quote": e[2], "run_id": e[3],
             "at": iso(e[4])}
            for e in evidence
        ],
        "quiz": [
            {"verdict": q[1], "at": iso(q[2]), "source_id": q[3], "tool_call_id": q[4],
             "question_index": q[5], "difficulty": q[7] or None}
            for q in quiz
        ],
        "observations": [
            {"level": o[1], "at": iso(o[2]), "source_id": o[3], "message_ids": list(o[4])}
            for o in observations
        ],
    }


def _node_dict(node: SnapshotNode, gate: Gate | None, cluster: str | None,
               position: Any) -> dict[str, Any]:
    out = node_head(node)
    out["cluster"] = cluster
    out["position"] = {"x": position.x, "y": position.y} if position is not None else None
    if gate is not None:
        out["ready"] = gate.ready
        out["blocked_by"] = [{"id": i, "score": s} for i, s in gate.blocking]
    return out


def gates_of(snapshot: GraphSnapshot) -> dict[str, Gate]:
    """``snapshot.gate`` of every gated node, with the prerequisites and scores looked up once
    (not once per node)."""
    prereqs = prerequisites((e.source, e.target) for e in snapshot.edges if e.kind == "follows")
    if not prereqs:
        return {}
    scores = {n.id: n.value for n in snapshot.nodes}
    return {node_id: gate(node_id, prereqs, scores) for node_id in prereqs}


def edge_dicts(snapshot: GraphSnapshot) -> Iterator[dict[str, Any]]:
    for e in snapshot.edges:
        yield {"id": e.id, "from": e.source, "to": e.target, "kind": e.kind}


def cluster_dicts(snapshot: GraphSnapshot) -> Iterator[dict[str, Any]]:
    for c in snapshot.clusters:
        yield {"id": c.id, "node_ids": list(c.node_ids), "label": c.label, "region": c.region}


def snapshot_to_dict(snapshot: GraphSnapshot) -> dict[str, Any]:
    """The graph as data; the server's ``GraphBody`` encodes the same for ``GET /api/graph``."""
    cluster_of = {nid: c.id for c in snapshot.clusters for nid in c.node_ids}
    positions, gates = snapshot.positions, gates_of(snapshot)
    return {
        "nodes": [_node_dict(n, gates.get(n.id), cluster_of.get(n.id), positions.get(n.id))
                  for n in snapshot.nodes],
        "edges": list(edge_dicts(snapshot)),
        "clusters": list(cluster_dicts(snapshot)),
    }


def _text(value: object) -> str:
    return escape(_XML_INVALID.sub("", str(value)))


def _attr(value: object) -> str:
    return quoteattr(_XML_INVALID.sub("", str(value)), {"\n": "&#10;", "\r": "&#13;",
                                                        "\t": "&#9;"})


_KEYS = (
    ("text", "node", "string"),
    ("state", "node", "string"),
    ("score", "node", "double"),
    ("evidence_count", "node", "int"),
    ("quiz_count", "node", "int"),
    ("sources", "node", "string"),
    ("cluster", "node", "string"),
    ("cluster_label", "node", "string"),
    ("kind", "edge", "string"),
)


def snapshot_to_graphml(snapshot: GraphSnapshot) -> str:
    clusters = {nid: c for c in snapshot.clusters for nid in c.node_ids}
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        ('<graphml xmlns="http://graphml.graphdrawing.org/xmlns" '
         'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
         'xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns '
         'http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">'),
    ]
    out += [f'  <key id="{k}" for="{f}" attr.name="{k}" attr.type="{t}"/>' for k, f, t in _KEYS]
    out.append('  <graph id="studyhall" edgedefault="directed">')
    for node in snapshot.nodes:
        data: list[tuple[str, object]] = [("text", node.text), ("state", node.state)]
        if node.score.value is not None:  # absence is not zero
            data.append(("score", node.score.value))
        data += [("evidence_count", len(node.evidence)), ("quiz_count", len(node.quiz)),
                 ("sources", " ".join(node.sources))]
        cluster = clusters.get(node.id)
        if cluster is not None:
            data.append(("cluster", cluster.id))
            if cluster.label:
                data.append(("cluster_label", cluster.label))
        out.append(f"    <node id={_attr(node.id)}>")
        out += [f'      <data key="{k}">{_text(v)}</data>' for k, v in data]
        out.append("    </node>")
    for edge in snapshot.edges:
        out.append(f"    <edge id={_attr(edge.id)} source={_attr(edge.source)} "
                   f"target={_attr(edge.target)}>")
        out.append(f'      <data key="kind">{_text(edge.kind)}</data>')
        out.append("    </edge>")
    out += ["  </graph>", "</graphml>", ""]
    return "\n".join(out)
