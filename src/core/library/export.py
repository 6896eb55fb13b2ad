"""The derived graph as data: the JSON shape of ``GET /api/graph`` and ``graph export``, and
GraphML (valid XML 1.0: text escaped, characters XML cannot carry removed)."""

from __future__ import annotations

import re
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from .mastery import Gate
from .snapshot import GraphSnapshot, SnapshotNode

# XML 1.0 allows tab, LF, CR and everything from U+0020 except surrogates and U+FFFE/U+FFFF.
_XML_INVALID = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _node_dict(node: SnapshotNode, gate: Gate | None, cluster: str | None,
               position: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": node.id,
        "text": node.text,
        "state": node.state,
        "score": node.score.value,
        "explanation": list(node.score.explanation),
        "created_at": node.created_at.isoformat(),
        "sources": list(node.sources),
        "evidence": [
            {"source_id": e.source_id, "message_id": e.message_id, "quote": e.quote,
             "run_id": e.run_id, "at": e.at.isoformat()}
            for e in node.evidence
        ],
        "quiz": [
            {"verdict": q.verdict, "at": q.at.isoformat(), "source_id": q.source_id,
             "tool_call_id": q.tool_call_id, "question_index": q.question_index}
            for q in node.quiz
        ],
        "observations": [
            {"level": o.level, "at": o.at.isoformat(), "source_id": o.source_id,
             "message_ids": list(o.message_ids)}
            for o in node.observations
        ],
        "cluster": cluster,
        "position": {"x": position.x, "y": position.y} if position is not None else None,
    }
    if gate is not None:
        out["ready"] = gate.ready
        out["blocked_by"] = [{"id": i, "score": s} for i, s in gate.blocking]
    return out


def snapshot_to_dict(snapshot: GraphSnapshot) -> dict[str, Any]:
    cluster_of = {nid: c.id for c in snapshot.clusters for nid in c.node_ids}
    return {
        "nodes": [_node_dict(n, snapshot.gate(n.id), cluster_of.get(n.id),
                             snapshot.positions.get(n.id))
                  for n in snapshot.nodes],
        "edges": [{"id": e.id, "from": e.source, "to": e.target, "kind": e.kind}
                  for e in snapshot.edges],
        "clusters": [{"id": c.id, "node_ids": list(c.node_ids), "label": c.label}
                     for c in snapshot.clusters],
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
