"""The extraction pipeline, one for every kind of source: extract → audit → plan → commit.

A source kind (``source_kinds``: a chat transcript, notes, the links between notes) plugs in
how its uncovered views are cut into batches and which extractor and auditor judge them; the
stages are the same for all. A batch is committed as its own run (a paid model answer is never
lost to a later failure), or — for a grouped kind, the model-free bulk import — planned into the
open group run that ``commit_group`` writes at once, with few disk syncs.

Every model call happens before the plan; committing never awaits, so cancelling a run (abort)
can only land before anything of the batch in flight is written, and no other coroutine can
merge in between. Planning awaits only for a heavy batch of a grouped kind (a huge note, planned
in a worker through ``off_loop``): the plan is written by the group commit, never by planning,
and the merge base is read before and brought up to date after the worker, on the loop — one
task drives a pipeline, so nothing else moves the base meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from studyhall.core.contracts.chat import Usage, add_usage
from studyhall.core.library.extraction.batching import Batch
from studyhall.core.library.extraction.coverage import View
from studyhall.core.library.extraction.finding_placement import (
    SESSION_TOPIC_KEY,
    Likeness,
    Session,
    best_topics,
    place_findings,
)
from studyhall.core.library.extraction.findings import (
    Auditor,
    AuditorOutput,
    Extractor,
    ExtractorOutput,
    KeepAllAuditor,
    NodeRef,
)
from studyhall.core.library.extraction.group_commit import commit_group, group_checkpoint, rekey
from studyhall.core.library.extraction.merge_base import MergeBase
from studyhall.core.library.extraction.merger import MergePlan, commit_merge, plan_merge
from studyhall.core.library.extraction.nearest import NeighbourFinder
from studyhall.core.library.extraction.topic_anchoring import anchor_floating
from studyhall.core.ports.storage import GraphStore
from studyhall.core.ports.system import Clock, Ids, OffLoop, in_place

Stage = Literal["extracting", "auditing", "merging"]
NEIGHBOURS_PER_FINDING = 5

# Uncovered views (one source's, in order) and a token budget -> the batches to extract.
Batching = Callable[[Sequence[View], int], list[Batch]]


@dataclass(frozen=True)
class SourceKind:
    """How one kind of source goes through the pipeline."""

    name: str
    batching: Batching
    extractor: Extractor
    auditor: Auditor
    grouped: bool = False  # plan into the open group run instead of committing each batch
    anchored: bool = False  # a finding left floating gets an edge to its nearest node
    # A session's findings: each attaches to the topic it is about (by the first ``likeness``
    # that can judge) or to the session's own topic (``finding_placement``).
    session: Session | None = None
    likeness: Sequence[Likeness] = ()
    candidates: NeighbourFinder | None = None  # topics by meaning, beside the lexical ones


@dataclass(frozen=True)
class Judged:
    """A batch's findings as the auditor left them, and what the model calls cost."""

    findings: ExtractorOutput
    audit: AuditorOutput
    usage: Usage | None
    node_ids: Mapping[str, str] = field(default_factory=dict)  # keys whose node is not their text


def without_known_edges(
    findings: ExtractorOutput, known_edges: frozenset[tuple[str, str, str]]
) -> ExtractorOutput:
    """Edges the graph already has, left out: a re-extracted note section re-states its place
    in the note, which is not a finding (so it is not reported as dropped either). Model-free
    keys are node ids, so the comparison is exact; model keys never match a node id. A weighed
    edge (a note's links) stays: its record re-weighs the edge."""
    edges = tuple(e for e in findings.edges
                  if e.weight is not None or (e.source, e.target, e.kind) not in known_edges)
    if len(edges) == len(findings.edges):
        return findings
    return findings.model_copy(update={"edges": edges})


class ExtractionPipeline:
    """Runs batches of any source kind through the stages, against one ``MergeBase``."""

    def __init__(
        self,
        *,
        store: GraphStore,
        base: MergeBase,
        clock: Clock,
        ids: Ids,
        group_source: str | None = None,
        off_loop: OffLoop = in_place,
    ) -> None:
        self._store, self._base, self._clock, self._ids = store, base, clock, ids
        self._off_loop = off_loop  # plans a heavy grouped batch off the event loop
        # What a group run's checkpoint names as its source (e.g. the vault of many notes).
        self._group_source = group_source
        self._group: list[MergePlan] = []
        self._group_run: str | None = None
        self._group_started: datetime | None = None

    # --- coverage and batching ---------------------------------------------------------------

    def covered(self, source_id: str) -> set[str]:
        return self._base.covered(source_id)

    def uncovered(self, views: Sequence[View]) -> list[View]:
        """The fingerprint diff, oldest first (views of one or more sources)."""
        covered: dict[str, set[str]] = {}
        out: list[View] = []
        for view in views:
            seen = covered.get(view.source_id)
            if seen is None:
                seen = covered[view.source_id] = self._base.covered(view.source_id)
            if view.fingerprint not in seen:
                out.append(view)
        return out

    def batches(self, views: Sequence[View], kind: SourceKind, budget: int) -> list[Batch]:
        """The batches a run over these views extracts now: the uncovered ones, cut by the
        kind's rule."""
        return kind.batching(self.uncovered(views), budget)

    # --- the stages ----------------------------------------------------------------------------

    async def run_batch(
        self,
        batch: Batch,
        kind: SourceKind,
        *,
        run_id: str | None = None,
        on_stage: Callable[[Stage], None] | None = None,
    ) -> MergePlan:
        """Extract, audit and plan one batch, then commit it as run ``run_id`` (a new id when
        None) — or, for a grouped kind, add it to the open group run.

        Raises whatever the model stages raise (``ModelError`` incl. invalid output); in that
        case nothing of this batch has been planned or written."""
        started = self._clock.now()
        stage = on_stage or _no_stage
        judged = await self.judge(batch, kind, stage)
        stage("merging")
        if kind.grouped:
            return await self._plan_into_group(batch, judged)
        # From here to the checkpoint nothing awaits: the merge is atomic for this event loop.
        run = run_id or self._ids.new("run")
        plan = self._plan(batch, judged, run, started, unique_keys=False)
        commit_merge(plan, self._store)
        self._base.committed(run)
        self._base.planned(plan)
        return plan

    async def judge(
        self, batch: Batch, kind: SourceKind, stage: Callable[[Stage], None] | None = None
    ) -> Judged:
        """The model stages: the extractor proposes, the auditor keeps or drops and judges
        identity against the nearest existing nodes. Nothing is written."""
        stage = stage or _no_stage
        stage("extracting")
        extraction = await kind.extractor.extract(batch)
        findings = extraction.output
        if not findings.propositions:  # nothing to judge: no auditor call
            return Judged(findings, AuditorOutput(verdicts=()), extraction.usage)
        stage("auditing")
        neighbours: dict[str, Sequence[NodeRef]] = {}
        if not isinstance(kind.auditor, KeepAllAuditor):  # it judges nothing against them
            near = await self._base.neighbours().nearest(
                [p.text for p in findings.propositions], NEIGHBOURS_PER_FINDING
            )
            neighbours = {p.key: refs for p, refs in zip(findings.propositions, near)}
        audit = await kind.auditor.audit(batch, findings, neighbours)
        verdicts = audit.output
        if kind.session is not None:
            best = await best_topics(findings, await self._candidates(findings, neighbours, kind),
                                     kind.likeness)
            # A model finding that took the topic's key is not the topic: keyed by its text.
            ours = all(p.key != SESSION_TOPIC_KEY for p in findings.propositions)
            findings, verdicts = place_findings(findings, verdicts, best, kind.session)
            return Judged(findings, verdicts, add_usage(extraction.usage, audit.usage),
                          {SESSION_TOPIC_KEY: kind.session.topic_id} if ours else {})
        if kind.anchored:
            findings = anchor_floating(findings, verdicts, neighbours)
        return Judged(findings, verdicts, add_usage(extraction.usage, audit.usage))

    async def _candidates(self, findings: ExtractorOutput,
                          neighbours: Mapping[str, Sequence[NodeRef]],
                          kind: SourceKind) -> Mapping[str, Sequence[NodeRef]]:
        """The topics each finding may be placed under: the auditor's lexical neighbours and,
        when the kind has them, the nearest by meaning."""
        if kind.candidates is None:
            return neighbours
        texts = [p.text for p in findings.propositions]
        near = await kind.candidates.nearest(texts, NEIGHBOURS_PER_FINDING)
        return {p.key: list({r.id: r for r in (*neighbours.get(p.key, ()), *refs)}.values())
                for p, refs in zip(findings.propositions, near, strict=True)}

    def _plan(
        self, batch: Batch, judged: Judged, run_id: str, started: datetime, *, unique_keys: bool
    ) -> MergePlan:
        known = self._base.known()
        findings = without_known_edges(judged.findings, known.edges)
        audit = judged.audit
        if unique_keys:
            findings, audit = rekey(findings, audit, batch.source_id)
        return plan_merge(batch, findings, audit, known, run_id=run_id, started_at=started,
                          at=self._clock.now(), usage=judged.usage, node_ids=judged.node_ids)

    # --- the group run -------------------------------------------------------------------------

    async def _plan_into_group(self, batch: Batch, judged: Judged) -> MergePlan:
        if self._group_run is None or self._group_started is None:
            self._group_run = self._ids.new("run")
            self._group_started = self._clock.now()
        args = (batch, judged, self._group_run, self._group_started)
        if batch.heavy:  # pure CPU: nothing is written until commit_group
            plan = await self._off_loop(self._plan, *args, unique_keys=True)
        else:
            plan = self._plan(*args, unique_keys=True)
        self._base.planned(plan)
        self._group.append(plan)
        return plan

    @property
    def pending(self) -> int:
        """Batches planned into the open group run and not written yet."""
        return len(self._group)

    def commit_group(self) -> list[MergePlan]:
        """Write the open group run, checkpoint last (no await inside: atomic for the event
        loop); returns its plans."""
        plans, run_id, started = self._group, self._group_run, self._group_started
        if not plans or run_id is None or started is None:
            return []
        first = plans[0].checkpoint
        source = self._group_source or (first.source_id if first else "")
        checkpoint = group_checkpoint(plans, run_id, source, started, self._clock.now())
        commit_group(plans, checkpoint, self._store)
        self._base.committed(run_id)
        self._group, self._group_run, self._group_started = [], None, None
        return plans

    def discard_group(self) -> None:
        """Forget planned, unwritten work (an abort). The merge base still holds its nodes,
        so the pipeline is not used again after."""
        self._group, self._group_run, self._group_started = [], None, None


def _no_stage(_stage: Stage) -> None:
    return None
