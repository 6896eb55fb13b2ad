"""Model propositions under their notes' topics: the model distils, the note's structure anchors.

With a model, a note's batch goes through the model extractor AND the structural one: the
note's title and headings (with their sentences as evidence) become topic nodes as without a
model, and each proposition the model distils gets a ``supports`` edge to the topic of the
section its first evidence quote cites — so nothing the model learns from a note floats free of
it. The auditor judges the model's propositions only; a topic is the note's own heading, quoted
verbatim, so it is kept for the merger's checks like the model-free import keeps it.

A session's findings are anchored too (``anchor_floating``): a kept proposition that names no
existing node and joins no edge gets a ``supports`` edge to its nearest existing node (the
neighbour the auditor was shown first) — a topic, or a proposition that hangs under one.
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
from studyhall.core.library.sources.notes.views import section_message_id


class TopicAnchoring:
    """Wraps a model extractor and auditor so a note's propositions hang under its topics."""

    def __init__(self, structure: StructuralExtractor) -> None:
        self._structure = structure  # the importer registers each note before its batches

    def topics_by_message(self, batch: Batch) -> dict[str, str]:
        """Section view message id -> that section's topic node id, for the batch's note."""
        doc = self._structure.doc(batch.source_id)
        if doc is None:
            return {}
        return {section_message_id(batch.source_id, s): section_node(doc, s)
                for s in doc.sections}

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
    """``findings`` with an edge from each kept, unlinked, unconnected proposition to its
    nearest existing node; unchanged when there is none to add."""
    linked = {v.key for v in audit.verdicts if v.link_to is not None or not v.keep}
    joined = {e.source for e in findings.edges} | {e.target for e in findings.edges}
    anchors = [
        EdgeFinding.model_validate({"from": p.key, "to": near[0].id, "kind": "supports"})
        for p in findings.propositions
        if p.key not in linked and p.key not in joined and (near := neighbours.get(p.key))
    ]
    if not anchors:
        return findings
    return findings.model_copy(update={"edges": (*findings.edges, *anchors)})
