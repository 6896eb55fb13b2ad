"""How an import writes: findings through the auditor into the merger, with few disk syncs.

Model-free findings of many notes are planned one note at a time (each against a known graph
that holds the notes before it) and committed as one run (``commit_group``): an import of a
big vault costs about one sync per note, not seven. Model findings commit batch by batch, so a
paid answer is never lost to a later failure. In a group run the finding keys get the source
id appended, so record ids (made from run id and key) stay unique. The known graph is kept in
step with every plan, so
identity ("this statement is already a node") never depends on re-reading the ledgers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

from studyhall.core.contracts.chat import Usage
from studyhall.core.library.extraction.batching import Batch
from studyhall.core.library.extraction.coverage import covered_fingerprints
from studyhall.core.library.extraction.findings import (
    Auditor,
    AuditorOutput,
    Extractor,
    ExtractorOutput,
    KeepAllAuditor,
    NodeRef,
    add_usage,
)
from studyhall.core.library.extraction.group_commit import commit_group, group_checkpoint
from studyhall.core.library.extraction.merger import KnownGraph, MergePlan, commit_merge, plan_merge
from studyhall.core.library.extraction.nearest import LexicalNeighbours
from studyhall.core.library.graph.snapshot import GraphSnapshot
from studyhall.core.ports.storage import GraphStore
from studyhall.core.ports.system import Clock, Ids

NEIGHBOURS = 5


@dataclass
class Tally:
    propositions: int = 0  # new nodes
    evidence: int = 0  # evidence added to existing nodes
    edges: int = 0
    dropped: int = 0
    drops: list[str] = field(default_factory=list)
    usage: Usage | None = None  # model calls' tokens and cost (None when no model ran)

    def add(self, plan: MergePlan) -> None:
        cp = plan.checkpoint
        if cp is not None and (cp.input_tokens, cp.output_tokens, cp.cost_usd) != (None,) * 3:
            self.usage = add_usage(
                self.usage,
                Usage(
                    input_tokens=cp.input_tokens,
                    output_tokens=cp.output_tokens,
                    cost_usd=cp.cost_usd,
                ),
            )
        self.propositions += len(plan.propositions)
        self.evidence += len(plan.identities)
        self.edges += len(plan.edges)
        self.dropped += len(plan.drops)
        self.drops += [str(d) for d in plan.drops]


def without_known_edges(
    findings: ExtractorOutput, known_edges: set[tuple[str, str, str]]
) -> ExtractorOutput:
    """Edges the graph already has, left out: a re-extracted section re-states its place in
    the note, which is not a finding (so it is not reported as dropped either). Model-free keys
    are node ids, so the comparison is exact; model keys never match a node id."""
    edges = tuple(e for e in findings.edges if (e.source, e.target, e.kind) not in known_edges)
    return findings.model_copy(update={"edges": edges})


def rekey(
    findings: ExtractorOutput, audit: AuditorOutput, suffix: str
) -> tuple[ExtractorOutput, AuditorOutput]:
    """Keys made unique per source (record ids of a group run derive from run id and key)."""
    keys = {p.key for p in findings.propositions}

    def ref(k: str) -> str:
        return f"{k}@{suffix}" if k in keys else k

    found = ExtractorOutput.model_validate(
        {
            "propositions": [
                p.model_copy(update={"key": ref(p.key)}) for p in findings.propositions
            ],
            "edges": [
                {"from": ref(e.source), "to": ref(e.target), "kind": e.kind} for e in findings.edges
            ],
        }
    )
    verdicts = tuple(v.model_copy(update={"key": ref(v.key)}) for v in audit.verdicts)
    return found, audit.model_copy(update={"verdicts": verdicts})


class NoteMerger:
    def __init__(
        self, store: GraphStore, clock: Clock, ids: Ids, snapshot: GraphSnapshot, group_source: str
    ) -> None:
        self._store, self._clock, self._ids = store, clock, ids
        self._group_source = group_source
        self.node_ids = {n.id for n in snapshot.nodes}
        self.node_texts = {n.id: n.text for n in snapshot.nodes}
        self.edges = {(e.source, e.target, e.kind) for e in snapshot.edges}
        self.runs = {c.id for c in store.checkpoints().records}
        self._group: list[MergePlan] = []
        self._group_run: str | None = None
        self._group_started: datetime | None = None

    def covered(self, source_id: str) -> set[str]:
        return covered_fingerprints(self._store.coverage(source_id).records, self.runs)

    def known(self) -> KnownGraph:
        # The live sets, not copies (a copy per note made a big import quadratic): planning is
        # synchronous and only tests membership, so nothing can change them meanwhile.
        return KnownGraph(
            cast(frozenset[str], self.node_ids), cast(frozenset[tuple[str, str, str]], self.edges)
        )

    def _absorb(self, plan: MergePlan) -> None:
        for record in plan.propositions:
            self.node_ids.add(record.node_id)
            self.node_texts[record.node_id] = record.text
        self.edges.update((e.source, e.target, e.relation) for e in plan.edges)

    async def findings(
        self,
        batch: Batch,
        extractor: Extractor,
        auditor: Auditor,
    ) -> tuple[ExtractorOutput, AuditorOutput, Usage | None]:
        """Extract and audit one batch (model calls happen here, before anything is planned)."""
        extraction = await extractor.extract(batch)
        found = without_known_edges(extraction.output, self.edges)
        if isinstance(auditor, KeepAllAuditor) or not found.propositions:
            audit = (await KeepAllAuditor().audit(batch, found, {})).output
            return found, audit, extraction.usage
        finder = LexicalNeighbours([NodeRef(i, t) for i, t in self.node_texts.items()])
        near = await finder.nearest([p.text for p in found.propositions], NEIGHBOURS)
        judged = await auditor.audit(
            batch, found, {p.key: refs for p, refs in zip(found.propositions, near)}
        )
        return found, judged.output, add_usage(extraction.usage, judged.usage)

    def plan_into_group(
        self, batch: Batch, found: ExtractorOutput, audit: AuditorOutput, usage: Usage | None = None
    ) -> MergePlan:
        """Plan one batch as part of the open group run (committed by ``commit_group``)."""
        if self._group_run is None:
            self._group_run = self._ids.new("run")
            self._group_started = self._clock.now()
        found, audit = rekey(found, audit, batch.source_id)
        plan = plan_merge(
            batch,
            found,
            audit,
            self.known(),
            run_id=self._group_run,
            started_at=self._group_started or self._clock.now(),
            at=self._clock.now(),
            usage=usage,
        )
        self._absorb(plan)
        self._group.append(plan)
        return plan

    @property
    def pending(self) -> int:
        return len(self._group)

    def commit_group(self) -> list[MergePlan]:
        """Write the open group (no await inside: atomic for the event loop)."""
        plans, run_id = self._group, self._group_run
        if not plans or run_id is None:
            return []
        checkpoint = group_checkpoint(
            plans,
            run_id,
            self._group_source,
            self._group_started or self._clock.now(),
            self._clock.now(),
        )
        commit_group(plans, checkpoint, self._store)
        self.runs.add(run_id)
        self._group, self._group_run, self._group_started = [], None, None
        return plans

    def discard_group(self) -> None:
        """Forget planned, unwritten work (an abort); this merger is not used again after."""
        self._group, self._group_run, self._group_started = [], None, None

    def commit_one(
        self,
        batch: Batch,
        found: ExtractorOutput,
        audit: AuditorOutput,
        usage: Usage | None,
        started: Any,
    ) -> MergePlan:
        """Plan and write one batch as its own run (model findings: never held back)."""
        run_id = self._ids.new("run")
        plan = plan_merge(
            batch,
            found,
            audit,
            self.known(),
            run_id=run_id,
            started_at=started,
            at=self._clock.now(),
            usage=usage,
        )
        commit_merge(plan, self._store)
        self.runs.add(run_id)
        self._absorb(plan)
        return plan
