"""One merge planned and committed in a step, for tests that seed a graph the way a run does
(the pipeline plans several merges, then commits them in one group: ``group_commit.py``)."""

from __future__ import annotations

from datetime import datetime

from studyhall.core.contracts.chat import Usage
from studyhall.core.library.extraction.batching import Batch
from studyhall.core.library.extraction.findings import AuditorOutput, ExtractorOutput
from studyhall.core.library.extraction.merger import KnownGraph, MergePlan, commit_merge, plan_merge
from studyhall.core.ports.storage import GraphStore


def merge_run(batch: Batch, findings: ExtractorOutput, audit: AuditorOutput, known: KnownGraph,
              store: GraphStore, *, run_id: str, started_at: datetime, at: datetime,
              usage: Usage | None = None) -> MergePlan:
    """Plan one merge and commit it; the plan (records written and drops)."""
    plan = plan_merge(batch, findings, audit, known, run_id=run_id, started_at=started_at,
                      at=at, usage=usage)
    commit_merge(plan, store)
    return plan
