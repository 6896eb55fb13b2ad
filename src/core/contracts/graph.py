"""Graph ledger records: the append-only evidence the knowledge graph is derived from.

Every record carries ``id``, deterministic from what it records (e.g. a quiz event's id comes
from its tool call id and question index), so a replayed append is detectable and ignored by
readers. ``run_id`` ties a record to the extraction run that wrote it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field
from studyhall.core.contracts.base import Record

# The closed scale the extractor reports for one proposition in one batch.
Understanding = Literal["solid", "partial", "confused", "misconception"]
QuizVerdict = Literal["correct", "miss", "dont-know"]
# How hard the teacher said a quiz question is (tracing weighs the answer by it; gating refuses
# hard questions before their prerequisites are learnt).
QuizDifficulty = Literal["easy", "medium", "hard"]
EdgeKindG = Literal["follows", "supports"]


class Evidence(Record):
    """Where a proposition came from: a message (or note line) and a verbatim quote of it."""

    source_id: str
    message_id: str
    quote: str


class PropositionCreated(Record):
    kind: Literal["proposition"] = "proposition"
    id: str = Field(min_length=1)
    node_id: str = Field(min_length=1)
    text: str = Field(min_length=1)
    evidence: tuple[Evidence, ...] = ()
    source_id: str
    run_id: str
    at: datetime


class EdgeAdded(Record):
    kind: Literal["edge"] = "edge"
    id: str = Field(min_length=1)
    source: str = Field(alias="from", min_length=1)
    target: str = Field(alias="to", min_length=1)
    relation: EdgeKindG
    source_id: str
    run_id: str
    at: datetime
    # How many links between two notes the edge stands for (None: one). A later record of the
    # same edge re-weighs it (a note's links changed).
    weight: int | None = Field(default=None, ge=1)


class QuizEvent(Record):
    kind: Literal["quiz"] = "quiz"
    id: str = Field(min_length=1)
    node_id: str
    verdict: QuizVerdict
    source_id: str  # the chat
    tool_call_id: str
    question_index: int = Field(ge=0)
    run_id: str
    at: datetime
    difficulty: QuizDifficulty | None = None  # as the quiz gave it; None: not given


class UnderstandingObserved(Record):
    kind: Literal["understanding"] = "understanding"
    id: str = Field(min_length=1)
    node_id: str
    level: Understanding
    source_id: str
    message_ids: tuple[str, ...] = ()
    run_id: str
    at: datetime


class IdentityLinked(Record):
    """A finding the auditor judged to BE an existing node: its evidence joins that node.

    With ``absorbs``, a whole node is folded into ``node_id`` (a re-import converting an old
    one-node-per-sentence graph into topics): the absorbed node's evidence, quiz answers and
    observations join ``node_id``, its edges now end there, and it is no longer shown."""

    kind: Literal["identity"] = "identity"
    id: str = Field(min_length=1)
    node_id: str
    text: str
    evidence: tuple[Evidence, ...] = ()
    source_id: str
    run_id: str
    at: datetime
    absorbs: str | None = None


class CoverageFingerprint(Record):
    """A message view the extractor has seen: its fingerprint, per source (chat or note)."""

    kind: Literal["coverage"] = "coverage"
    # f"{source_id}:{fingerprint}:{run_id}": run-scoped, so a run that died before its
    # checkpoint cannot shadow (as a "replay" of the same id) the run that covers it again.
    id: str = Field(min_length=1)
    source_id: str
    message_id: str
    fingerprint: str
    tokens: int = Field(ge=0)
    run_id: str
    at: datetime


class RunCheckpoint(Record):
    """Written last by a merged run; a run without one wrote nothing that counts."""

    kind: Literal["checkpoint"] = "checkpoint"
    id: str = Field(min_length=1)  # the run id
    source_id: str
    started_at: datetime
    finished_at: datetime
    propositions: int = 0
    edges: int = 0
    dropped: int = 0
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None


class Cluster(Record):
    id: str
    node_ids: tuple[str, ...]
    label: str | None = None
    # The members when the label was given: the cluster keeps its id and label while most of
    # this core survives a re-clustering (seed 001's core-survival rule).
    core: tuple[str, ...] = ()
    label_source: Literal["model", "terms"] | None = None  # who named it
    # The whole-graph zoom's coarser partition (``upkeep/regions.py``): the id of the cluster
    # heading this cluster's region (its label names the region); None before any upkeep.
    region: str | None = None


class Position(Record):
    x: float
    y: float
