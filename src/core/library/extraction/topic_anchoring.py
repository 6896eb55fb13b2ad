"""Model propositions under their notes' topics: the model distils, the note's structure anchors.

With a model, a note's batch goes through the model extractor AND the structural one: the
note's title and headings (with their sentences as evidence) become topic nodes as without a
model, and each proposition the model distils gets a ``supports`` edge to the topic of the
section its first evidence quote cites — so nothing the model learns from a note floats free of
it. The auditor judges the model's propositions only; a topic is the note's own heading, quoted
verbatim, so it is kept for the merger's checks like the model-free import keeps it.

A source kind marked ``anchored`` without a session has its findings anchored too
(``anchor_floating``): a kept group of findings that names no existing node gets a ``supports``
edge to its nearest existing node (the neighbour the auditor was shown first); a group nothing
in the graph is near hangs under the batch's first finding. None is left floating. A session's
findings are placed by ``finding_placement`` instead (a calibrated minimum, else the session's
own topic), on the groups ``new_groups`` finds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from studyhall.core.contracts.chat import add_usage
from studyhall.core.library.extraction.batching import Batch
from studyhall.core.library.extraction.findings import (
    Audit,
    Auditor,
    AuditorOutput,
    EdgeFinding,
    Extraction,
    Extractor,
    ExtractorOutput,
    KeepAllAuditor,
    NodeRef,
)
from studyhall.core.library.extraction.structural_extractor import (
    StructuralExtractor,
    section_node,
)
from studyhall.core.library.sources.notes.document import NoteDoc
from studyhall.core.library.sources.notes.views import section_message_id


class TopicAnchoring:
    """Wraps a model extractor and auditor so a note's propositions hang under its topics."""

    def __init__(self, structure: StructuralExtractor) -> None:
        self._structure = structure  # the importer registers each note before its batches
        # The last note's topics: a note of many sections is many batches, and working its
        # every topic out again for each of them was quadratic in the note.
        self._last: tuple[str, NoteDoc, dict[str, str]] | None = None

    def topics_by_message(self, batch: Batch) -> dict[str, str]:
        """Section view message id -> that section's topic node id, for the batch's note."""
        doc = self._structure.doc(batch.source_id)
        if doc is None:
            return {}
        last = self._last
        if last is not None and last[0] == batch.source_id and last[1] is doc:
            return last[2]
        topics = {section_message_id(batch.source_id, s): section_node(doc, s)
                  for s in doc.sections}
        self._last = (batch.source_id, doc, topics)
        return topics

    def extractor(self, model: Extractor) -> Extractor:
        return _AnchoredExtractor(self, model)

    def auditor(self, model: Auditor) -> Auditor:
        return _AnchoredAuditor(self, model)


class _AnchoredExtractor:
    def __init__(self, anchoring: TopicAnchoring, model: Extractor) -> None:
        self._anchoring, self._model = anchoring, model

    async def extract(self, batch: Batch) -> Extraction:
        distilled = await self._model.extract(batch)
        topics = await self._anchoring._structure.extract(batch)
        topic_of = self._anchoring.topics_by_message(batch)
        model_out, topic_out = distilled.output, topics.output
        anchors = [
            EdgeFinding.model_validate({"from": p.key, "to": topic, "kind": "supports"})
            for p in model_out.propositions
            if p.evidence and (topic := topic_of.get(p.evidence[0].message_id)) is not None
        ]
        output = ExtractorOutput(
            propositions=(*model_out.propositions, *topic_out.propositions),
            edges=(*model_out.edges, *topic_out.edges, *anchors),
        )
        return Extraction(output, add_usage(distilled.usage, topics.usage))


class _AnchoredAuditor:
    def __init__(self, anchoring: TopicAnchoring, model: Auditor) -> None:
        self._anchoring, self._model = anchoring, model

    async def audit(
        self,
        batch: Batch,
        findings: ExtractorOutput,
        neighbours: Mapping[str, Sequence[NodeRef]],
    ) -> Audit:
        topics = set(self._anchoring.topics_by_message(batch).values())
        model_findings = ExtractorOutput(
            propositions=tuple(p for p in findings.propositions if p.key not in topics),
            edges=tuple(e for e in findings.edges
                        if e.source not in topics and e.target not in topics),
        )
        topic_findings = findings.model_copy(update={
            "propositions": tuple(p for p in findings.propositions if p.key in topics),
            "edges": ()})
        judged = await self._model.audit(batch, model_findings, neighbours)
        kept = await KeepAllAuditor().audit(batch, topic_findings, {})
        verdicts = (*judged.output.verdicts, *kept.output.verdicts)
        return Audit(AuditorOutput(verdicts=verdicts), judged.usage)


def anchor_floating(
    findings: ExtractorOutput,
    audit: AuditorOutput,
    neighbours: Mapping[str, Sequence[NodeRef]],
) -> ExtractorOutput:
    """``findings`` with ``supports`` edges that tie every kept new finding to the graph.

    New findings joined by the extractor's edges form groups; a group that touches no existing
    node (no edge to one, no member linked to one) gets one edge, from its first member that
    has a neighbour to that neighbour. A group with no neighbour at all (nothing in the graph
    shares a word with it) hangs under the batch's hub: the first finding of the first group
    tied to the graph, or, when none is, the batch's first finding, which then stands as the
    session's topic until later findings or notes join it. Unchanged when nothing is added."""
    anchors: list[EdgeFinding] = []
    hub: str | None = None
    orphans: list[str] = []
    for members, grounded in new_groups(findings, audit):
        if grounded:
            hub = hub or members[0]
            continue
        near = next(((m, refs[0]) for m in members if (refs := neighbours.get(m))), None)
        if near is None:
            orphans.append(members[0])
            continue
        anchors.append(supports(near[0], near[1].id))
        hub = hub or members[0]
    if hub is None and orphans:
        hub = orphans.pop(0)
    anchors += [supports(k, hub) for k in orphans if hub is not None]
    if not anchors:
        return findings
    return findings.model_copy(update={"edges": (*findings.edges, *anchors)})


def new_groups(findings: ExtractorOutput, audit: AuditorOutput) -> list[tuple[list[str], bool]]:
    """The batch's kept new findings in groups joined by the extractor's edges, in order, each
    with whether it is already tied to the graph (an edge to an existing node, or to a finding
    the auditor linked to one)."""
    verdicts = {v.key: v for v in audit.verdicts}
    keys = [p.key for p in findings.propositions]
    # A finding without a verdict is kept as new, as the merger keeps it.
    new = [k for k in keys if (v := verdicts.get(k)) is None or (v.keep and v.link_to is None)]
    dropped = {k for k in keys if (v := verdicts.get(k)) is not None and not v.keep}
    groups = _Groups(new)
    grounded: set[str] = set()
    for edge in findings.edges:
        for a, b in ((edge.source, edge.target), (edge.target, edge.source)):
            if a not in groups:
                continue
            if b in groups:
                groups.join(a, b)
            elif b not in dropped:  # an existing node, or a finding linked to one
                grounded.add(a)
    return [(members, any(m in grounded for m in members)) for members in groups.all()]


def supports(source: str, target: str) -> EdgeFinding:
    return EdgeFinding.model_validate({"from": source, "to": target, "kind": "supports"})


class _Groups:
    """Union-find over a batch's new findings, groups listed in the order of their first
    member."""

    def __init__(self, keys: Sequence[str]) -> None:
        self._order = list(dict.fromkeys(keys))
        self._parent = {k: k for k in self._order}

    def __contains__(self, key: object) -> bool:
        return key in self._parent

    def _root(self, key: str) -> str:
        while self._parent[key] != key:
            self._parent[key] = self._parent[self._parent[key]]
            key = self._parent[key]
        return key

    def join(self, a: str, b: str) -> None:
        ra, rb = self._root(a), self._root(b)
        if ra != rb:
            self._parent[rb] = ra

    def all(self) -> list[list[str]]:
        out: dict[str, list[str]] = {}
        for key in self._order:
            out.setdefault(self._root(key), []).append(key)
        return list(out.values())
