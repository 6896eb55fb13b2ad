"""One batch through the pipeline: extractor → auditor → merger.

Written only against ports, so chat extraction and notes import share it (the notes importer
passes its own extractor, and ``KeepAllAuditor`` when there is no model). Every model call
happens before the merge; the merge itself has no ``await`` between reading the known graph
and writing the checkpoint, so cancelling a run (abort) can only ever land before anything is
written, and no other coroutine can merge in between.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from studyhall.core.library.extraction.batching import Batch
from studyhall.core.library.extraction.findings import (
    Audit,
    Auditor,
    AuditorOutput,
    Extractor,
    NodeRef,
    add_usage,
)
from studyhall.core.library.extraction.merger import MergePlan, commit_merge, plan_merge
from studyhall.core.library.extraction.nearest import LexicalNeighbours, NeighbourFinder
from studyhall.core.library.graph.snapshot import GraphSnapshot
from studyhall.core.ports.storage import GraphStore
from studyhall.core.ports.system import Clock

Stage = Literal["extracting", "auditing", "merging"]
NEIGHBOURS_PER_FINDING = 5


def lexical_finder(snapshot: GraphSnapshot) -> NeighbourFinder:
    return LexicalNeighbours([NodeRef(n.id, n.text) for n in snapshot.nodes])


class CachedLexicalFinder:
    """``lexical_finder`` that reuses its index while the graph's nodes are unchanged (an
    incremental fold hands back the same nodes tuple until something new is merged)."""

    def __init__(self) -> None:
        self._nodes: tuple[object, ...] | None = None
        self._finder: NeighbourFinder | None = None

    def __call__(self, snapshot: GraphSnapshot) -> NeighbourFinder:
        if self._finder is None or snapshot.nodes is not self._nodes:
            self._nodes, self._finder = snapshot.nodes, lexical_finder(snapshot)
        return self._finder


async def run_batch(
    batch: Batch,
    *,
    run_id: str,
    extractor: Extractor,
    auditor: Auditor,
    store: GraphStore,
    snapshot: Callable[[], GraphSnapshot],
    clock: Clock,
    finder: Callable[[GraphSnapshot], NeighbourFinder] = lexical_finder,
    on_stage: Callable[[Stage], None] | None = None,
) -> MergePlan:
    """Extract, audit and merge one batch; returns the merge plan that was committed.

    Raises whatever the model stages raise (``ModelError`` incl. invalid output); in that case
    nothing has been written."""
    started = clock.now()
    stage = on_stage or (lambda _stage: None)
    stage("extracting")
    extraction = await extractor.extract(batch)
    findings = extraction.output
    if findings.propositions:
        stage("auditing")
        found = await finder(snapshot()).nearest(
            [p.text for p in findings.propositions], NEIGHBOURS_PER_FINDING)
        neighbours = {p.key: refs for p, refs in zip(findings.propositions, found)}
        audit = await auditor.audit(batch, findings, neighbours)
    else:
        audit = Audit(AuditorOutput(verdicts=()))  # nothing to judge: no auditor call
    stage("merging")
    # From here to the checkpoint nothing awaits: the merge is atomic for this event loop.
    plan = plan_merge(batch, findings, audit.output, snapshot().known(), run_id=run_id,
                      started_at=started, at=clock.now(),
                      usage=add_usage(extraction.usage, audit.usage))
    commit_merge(plan, store)
    return plan
