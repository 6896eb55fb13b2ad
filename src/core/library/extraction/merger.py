"""The merger: deterministic, and the ONLY writer of the graph ledgers.

It checks what the models cannot be trusted with — every quote verbatim in the view it cites,
``link_to`` naming an existing node, edges joining known nodes (no self-loops, no duplicates) —
drops whatever fails with a reason (never repairs by guessing), rebuilds quiz events from the
transcript's graded tool parts, and writes coverage and finally the checkpoint. A run without
its checkpoint counts for nothing, so a failure at any point before it writes nothing that
counts; record ids are deterministic from the run and what they record, so replaying a merge
appends nothing new.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from studyhall.core.contracts.chat import Usage
from studyhall.core.contracts.graph import (
    CoverageFingerprint,
    EdgeAdded,
    Evidence,
    IdentityLinked,
    PropositionCreated,
    QuizEvent,
    RunCheckpoint,
    UnderstandingObserved,
)
from studyhall.core.library.extraction.batching import Batch
from studyhall.core.library.extraction.evidence import ViewIndex, check_quote, normalize_ws
from studyhall.core.library.extraction.findings import (
    AuditorOutput,
    ExtractorOutput,
    PropositionFinding,
    Verdict,
)
from studyhall.core.library.extraction.quiz_parts import QuizResult
from studyhall.core.ports.storage import GraphStore


@dataclass(frozen=True)
class Drop:
    """A finding (or part of one) the merger refused, and why. Logged, never repaired."""

    stage: str  # "proposition", "evidence", "edge", "quiz-link"
    key: str | None
    reason: str

    def __str__(self) -> str:
        return f"{self.stage} {self.key or '-'}: {self.reason}"


@dataclass(frozen=True)
class KnownGraph:
    """What the merge checks against: the nodes and edges of checkpointed runs."""

    node_ids: frozenset[str] = frozenset()
    edges: frozenset[tuple[str, str, str]] = frozenset()  # (from, to, relation)


@dataclass
class MergePlan:
    run_id: str
    propositions: list[PropositionCreated] = field(default_factory=list)
    identities: list[IdentityLinked] = field(default_factory=list)
    edges: list[EdgeAdded] = field(default_factory=list)
    observations: list[UnderstandingObserved] = field(default_factory=list)
    quiz_events: list[QuizEvent] = field(default_factory=list)
    coverage: list[CoverageFingerprint] = field(default_factory=list)
    drops: list[Drop] = field(default_factory=list)
    checkpoint: RunCheckpoint | None = None


def record_id(prefix: str, *parts: object) -> str:
    digest = hashlib.sha256("\x1f".join(str(p) for p in parts).encode("utf-8")).hexdigest()
    return f"{prefix}_{digest[:24]}"


def node_id_for(text: str) -> str:
    """A new node's id comes from its normalized text: the same statement lands on one node
    (an exact match is never a wrong merge)."""
    digest = hashlib.sha256(normalize_ws(text).casefold().encode("utf-8")).hexdigest()
    return f"n_{digest[:16]}"


class _Planner:
    def __init__(self, batch: Batch, known: KnownGraph, run_id: str, at: datetime,
                 node_ids: Mapping[str, str]) -> None:
        self.batch, self.known, self.run_id, self.at = batch, known, run_id, at
        self.node_ids = node_ids  # finding key -> its node id, for findings not keyed by text
        self.source_id = batch.source_id
        self.index = ViewIndex(batch.views)
        self.quizzes: dict[str, QuizResult] = {q.ref: q for v in batch.views for q in v.quizzes}
        self.view_at = {view.message_id: view.at for view in batch.views}
        self.plan = MergePlan(run_id)
        self.key_nodes: dict[str, str] = {}  # finding key -> node id
        self.dropped_keys: set[str] = set()
        self.new_nodes: set[str] = set()
        self.quiz_seen: set[tuple[str, str]] = set()

    def drop(self, stage: str, key: str | None, reason: str) -> None:
        self.plan.drops.append(Drop(stage, key, reason))

    def proposition(self, finding: PropositionFinding, verdict: Verdict | None) -> None:
        key = finding.key
        text = normalize_ws(finding.text)
        if key in self.key_nodes or key in self.dropped_keys:
            self.drop("proposition", key, "duplicate key in the extractor output")
            return
        reason = self._refusal(text, verdict)
        evidence = self._evidence(finding) if reason is None else ()
        if reason is None and not evidence:
            reason = "no evidence quote survived the verbatim check"
        link = verdict.link_to if verdict is not None else None
        if reason is None and link is not None and link not in self.known.node_ids:
            reason = f"link_to {link!r} names no existing node"
        if reason is not None:
            self.dropped_keys.add(key)
            self.drop("proposition", key, reason)
            return
        node_id = (verdict.link_to if verdict and verdict.link_to
                   else self.node_ids.get(key) or node_id_for(text))
        self.key_nodes[key] = node_id
        if node_id in self.known.node_ids or node_id in self.new_nodes:
            self.plan.identities.append(IdentityLinked(
                id=record_id("idl", self.run_id, node_id, key), node_id=node_id, text=text,
                evidence=evidence, source_id=self.source_id, run_id=self.run_id, at=self.at))
        else:
            self.new_nodes.add(node_id)
            self.plan.propositions.append(PropositionCreated(
                id=record_id("prp", self.run_id, node_id), node_id=node_id, text=text,
                evidence=evidence, source_id=self.source_id, run_id=self.run_id, at=self.at))
        if finding.understanding is not None:
            cited = tuple(dict.fromkeys(e.message_id for e in evidence))
            # Dated by the latest message it rests on, so it orders correctly against quiz
            # events (dated by their answer) when understanding states are derived.
            self.plan.observations.append(UnderstandingObserved(
                id=record_id("obs", self.run_id, node_id, key), node_id=node_id,
                level=finding.understanding, source_id=self.source_id, message_ids=cited,
                run_id=self.run_id, at=max(self.view_at[m] for m in cited)))
        self._quiz_links(finding, node_id)

    def _refusal(self, text: str, verdict: Verdict | None) -> str | None:
        if not text:
            return "empty proposition text"
        if verdict is None:
            return "the auditor gave no verdict for it"
        if not verdict.keep:
            return f"auditor dropped it: {verdict.reason or 'no reason given'}"
        return None

    def _evidence(self, finding: PropositionFinding) -> tuple[Evidence, ...]:
        kept: dict[tuple[str, str], Evidence] = {}
        for claim in finding.evidence:
            view, reason = check_quote(self.index, claim.message_id, claim.quote)
            if view is None:
                self.drop("evidence", finding.key, reason or "unchecked quote")
                continue
            quote = normalize_ws(claim.quote)
            kept.setdefault((view.message_id, quote),
                            Evidence(source_id=self.source_id, message_id=view.message_id,
                                     quote=quote))
        return tuple(kept.values())

    def _quiz_links(self, finding: PropositionFinding, node_id: str) -> None:
        for ref in finding.quizzes:
            result = self.quizzes.get(ref)
            if result is None:
                self.drop("quiz-link", finding.key,
                          f"{ref!r} is not a graded quiz question in this batch")
                continue
            if (ref, node_id) in self.quiz_seen:
                continue
            self.quiz_seen.add((ref, node_id))
            # Kind, time and refs come from the graded tool part; only the link is judgement.
            self.plan.quiz_events.append(QuizEvent(
                id=record_id("quz", self.run_id, result.tool_call_id, result.question_index,
                             node_id),
                node_id=node_id, verdict=result.verdict, source_id=self.source_id,
                tool_call_id=result.tool_call_id, question_index=result.question_index,
                run_id=self.run_id, at=result.at, difficulty=result.difficulty))

    def edge(self, source: str, target: str, kind: str, seen: set[tuple[str, str, str]],
             weight: int | None = None) -> None:
        """``weight``: how many note links it stands for; a weighed edge the graph has already
        is written again, re-weighing it (its note's links changed), never dropped."""
        label = f"{source}->{target}"
        src, dst = self._endpoint(source), self._endpoint(target)
        if src is None or dst is None:
            raw = source if src is None else target
            why = ("joins a dropped finding" if raw in self.dropped_keys
                   else "is neither a kept finding nor an existing node")
            self.drop("edge", label, f"endpoint {raw!r} {why}")
            return
        if src == dst:
            self.drop("edge", label, "self-loop")
            return
        triple = (src, dst, kind)
        if triple in seen or (triple in self.known.edges and weight is None):
            self.drop("edge", label, f"duplicate {kind} edge")
            return
        seen.add(triple)
        self.plan.edges.append(EdgeAdded.model_validate({
            "id": record_id("edg", self.run_id, src, dst, kind), "from": src, "to": dst,
            "relation": kind, "source_id": self.source_id, "run_id": self.run_id,
            "at": self.at, "weight": weight}))

    def _endpoint(self, ref: str) -> str | None:
        if ref in self.key_nodes:
            return self.key_nodes[ref]
        if ref in self.dropped_keys:
            return None
        return ref if ref in self.known.node_ids else None


def plan_merge(
    batch: Batch,
    findings: ExtractorOutput,
    audit: AuditorOutput,
    known: KnownGraph,
    *,
    run_id: str,
    started_at: datetime,
    at: datetime,
    usage: Usage | None = None,
    node_ids: Mapping[str, str] | None = None,
) -> MergePlan:
    """Everything a merge would append, and every drop — a pure function of its inputs.
    ``node_ids``: the node a finding key is, when its identity is not its text (a session's
    topic is its session)."""
    planner = _Planner(batch, known, run_id, at, node_ids or {})
    verdicts: dict[str, Verdict] = {}
    for verdict in audit.verdicts:
        verdicts.setdefault(verdict.key, verdict)
    for finding in findings.propositions:
        planner.proposition(finding, verdicts.get(finding.key))
    seen: set[tuple[str, str, str]] = set()
    for edge in findings.edges:
        planner.edge(edge.source, edge.target, edge.kind, seen, edge.weight)
    plan = planner.plan
    plan.coverage = [
        CoverageFingerprint(
            id=f"{batch.source_id}:{view.fingerprint}:{run_id}", source_id=batch.source_id,
            message_id=view.message_id, fingerprint=view.fingerprint, tokens=view.tokens,
            run_id=run_id, at=at)
        for view in batch.views
    ]
    plan.checkpoint = RunCheckpoint(
        id=run_id, source_id=batch.source_id, started_at=started_at, finished_at=at,
        propositions=len(plan.propositions) + len(plan.identities), edges=len(plan.edges),
        dropped=len(plan.drops),
        input_tokens=usage.input_tokens if usage else None,
        output_tokens=usage.output_tokens if usage else None,
        cost_usd=usage.cost_usd if usage else None)
    return plan


def commit_merge(plan: MergePlan, store: GraphStore) -> None:
    """Append in a fixed order, checkpoint LAST: a crash anywhere before it leaves records that
    readers ignore, and the next run over the same (still uncovered) messages converges."""
    if plan.checkpoint is None:
        raise ValueError("a merge plan without a checkpoint cannot be committed")
    if plan.propositions:
        store.append_propositions(plan.propositions)
    if plan.identities:
        store.append_identity_links(plan.identities)
    if plan.edges:
        store.append_edges(plan.edges)
    if plan.observations:
        store.append_observations(plan.observations)
    if plan.quiz_events:
        store.append_quiz_events(plan.quiz_events)
    if plan.coverage:
        store.append_coverage(plan.checkpoint.source_id, plan.coverage)
    store.append_checkpoint(plan.checkpoint)


def plan_absorb(
    folds: Sequence[tuple[str, str, str]],
    known: KnownGraph,
    *,
    run_id: str,
    source_id: str,
    at: datetime,
) -> MergePlan:
    """A run folding whole nodes into others: ``(absorbed node, into node, into's text)`` each,
    written as identity links that ``absorb`` (ledgers are append-only: the absorbed node's
    records stay, the fold counts them for the node it went into). Both ends must exist."""
    plan = MergePlan(run_id)
    for old, into, text in folds:
        if old == into or old not in known.node_ids or into not in known.node_ids:
            plan.drops.append(Drop("absorb", old, f"cannot fold {old!r} into {into!r}"))
            continue
        plan.identities.append(IdentityLinked(
            id=record_id("abs", old, into), node_id=into, text=text, source_id=source_id,
            run_id=run_id, at=at, absorbs=old))
    plan.checkpoint = RunCheckpoint(
        id=run_id, source_id=source_id, started_at=at, finished_at=at,
        propositions=len(plan.identities), dropped=len(plan.drops))
    return plan
