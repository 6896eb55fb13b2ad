"""The structured outputs of the pipeline's judging stages, and the ports they sit behind.

The extractor proposes, the auditor judges, the merger checks and writes. Shapes follow
DESIGN.md ("Structured outputs of the pipeline roles"); one optional addition: a proposition
may list the quiz question refs (``"call_1/q2"``) that tested it — the extractor's judgement
that links graded quiz events, rebuilt from the transcript, to a node.

``Extractor`` and ``Auditor`` are ports: the model-backed ones live in ``core.agents``; the
notes importer plugs a model-free extractor in behind the same interface.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator
from studyhall.core.contracts.chat import Usage
from studyhall.core.contracts.graph import Understanding
from studyhall.core.library.extraction.batching import Batch
from studyhall.core.ports.system import OffLoop, in_place


class _Output(BaseModel):
    # Models add chatter fields ("confidence", "notes"); ignoring them harms nothing, while a
    # missing or mistyped required field is a real failure.
    # defer_build: validators are built on first use, not when the app starts.
    model_config = ConfigDict(extra="ignore", frozen=True, populate_by_name=True, defer_build=True)


class EvidenceClaim(_Output):
    message_id: str = Field(min_length=1)  # a message id, or a line id "<message_id>/<n>"
    quote: str


class PropositionFinding(_Output):
    key: str = Field(min_length=1)
    text: str
    evidence: tuple[EvidenceClaim, ...] = ()
    understanding: Understanding | None = None
    quizzes: tuple[str, ...] = ()

    @field_validator("understanding", mode="before")
    @classmethod
    def _lower(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value


class EdgeFinding(_Output):
    source: str = Field(alias="from", min_length=1)
    target: str = Field(alias="to", min_length=1)
    kind: Literal["follows", "supports"]
    # How many links between two notes the edge stands for: set by the link extractor, never
    # read from a model's output (a private attribute is not parsed).
    _weight: int | None = PrivateAttr(default=None)

    @property
    def weight(self) -> int | None:
        return self._weight

    def weighed(self, weight: int) -> EdgeFinding:
        copy = self.model_copy()
        copy._weight = max(1, weight)
        return copy


class ExtractorOutput(_Output):
    propositions: tuple[PropositionFinding, ...]  # required: "{}" is not an answer
    edges: tuple[EdgeFinding, ...] = ()


class Verdict(_Output):
    key: str = Field(min_length=1)
    keep: bool
    reason: str = ""
    link_to: str | None = None


class AuditorOutput(_Output):
    verdicts: tuple[Verdict, ...]


@dataclass(frozen=True)
class NodeRef:
    """An existing node as the auditor sees it."""

    id: str
    text: str


@dataclass(frozen=True)
class Extraction:
    output: ExtractorOutput
    usage: Usage | None = None


@dataclass(frozen=True)
class Audit:
    output: AuditorOutput
    usage: Usage | None = None


class Extractor(Protocol):
    async def extract(self, batch: Batch) -> Extraction:
        """Propose findings for one batch. Raises ``ModelError`` (incl. invalid output)."""
        ...


class Auditor(Protocol):
    async def audit(
        self,
        batch: Batch,
        findings: ExtractorOutput,
        neighbours: Mapping[str, Sequence[NodeRef]],
    ) -> Audit:
        """Keep/drop each finding and judge its identity against ``neighbours[key]``."""
        ...


class KeepAllAuditor:
    """The model-free auditor: keeps every finding and links none (the merger still checks
    every quote, and identical texts still land on one node). For imports with no model; a
    heavy batch's verdicts (20k for a note of 20k headings) are made through ``off_loop``."""

    def __init__(self, off_loop: OffLoop = in_place) -> None:
        self._off_loop = off_loop

    async def audit(
        self,
        batch: Batch,
        findings: ExtractorOutput,
        neighbours: Mapping[str, Sequence[NodeRef]],
    ) -> Audit:
        if batch.heavy:
            return Audit(await self._off_loop(_keep_all, findings))
        return Audit(_keep_all(findings))


def _keep_all(findings: ExtractorOutput) -> AuditorOutput:
    return AuditorOutput(verdicts=tuple(
        Verdict(key=p.key, keep=True, reason="no auditor model: kept for the merger's checks")
        for p in findings.propositions
    ))
