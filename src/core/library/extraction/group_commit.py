"""Commit many merge plans as ONE run: what a bulk notes import writes, with few disk syncs.

Each plan comes from the merger (``plan_merge``), planned one after another against a known
graph that already holds the earlier plans' nodes, all with the same run id. They are written
like one merge: every ledger's records in one append each, each source's coverage, and the
single checkpoint LAST — so a crash anywhere before it leaves nothing that counts, and the next
import re-plans exactly those notes. Finding keys must be unique across the plans (the
pipeline suffixes them with the source id: ``rekey``), since record ids derive from run id
and key.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from studyhall.core.contracts.chat import add_usage
from studyhall.core.contracts.graph import RunCheckpoint
from studyhall.core.library.extraction.findings import AuditorOutput, ExtractorOutput
from studyhall.core.library.extraction.merger import MergePlan
from studyhall.core.library.extraction.tally import plan_usage
from studyhall.core.ports.storage import GraphStore


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


def group_checkpoint(
    plans: Sequence[MergePlan], run_id: str, source_id: str, started_at: datetime, at: datetime
) -> RunCheckpoint:
    usage = add_usage(*(plan_usage(plan) for plan in plans))
    return RunCheckpoint(
        id=run_id,
        source_id=source_id,
        started_at=started_at,
        finished_at=at,
        propositions=sum(len(p.propositions) + len(p.identities) for p in plans),
        edges=sum(len(p.edges) for p in plans),
        dropped=sum(len(p.drops) for p in plans),
        input_tokens=usage.input_tokens if usage else None,
        output_tokens=usage.output_tokens if usage else None,
        cost_usd=usage.cost_usd if usage else None,
    )


def commit_group(plans: Sequence[MergePlan], checkpoint: RunCheckpoint, store: GraphStore) -> None:
    if any(plan.run_id != checkpoint.id for plan in plans):
        raise ValueError("every plan of a group commit must carry the group's run id")
    propositions = [r for p in plans for r in p.propositions]
    identities = [r for p in plans for r in p.identities]
    edges = [r for p in plans for r in p.edges]
    observations = [r for p in plans for r in p.observations]
    quiz_events = [r for p in plans for r in p.quiz_events]
    if propositions:
        store.append_propositions(propositions)
    if identities:
        store.append_identity_links(identities)
    if edges:
        store.append_edges(edges)
    if observations:
        store.append_observations(observations)
    if quiz_events:
        store.append_quiz_events(quiz_events)
    for plan in plans:
        if plan.coverage:
            store.append_coverage(plan.coverage[0].source_id, plan.coverage)
    store.append_checkpoint(checkpoint)
