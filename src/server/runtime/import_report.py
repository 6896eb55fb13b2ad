"""What an import reports while it runs (``ImportProgress``) and when it ends (``ImportReport``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from studyhall.core.contracts.chat import Usage
from studyhall.core.contracts.material import SkippedFile
from studyhall.server.runtime.graph_upkeep import UpkeepReport

Mode = Literal["auto", "model", "structural"]


@dataclass(frozen=True)
class ImportProgress:
    stage: str  # scanning | reading | extracting | linking | embedding | clustering | layout | done
    done: int
    total: int
    path: str | None = None


ProgressFn = Callable[[ImportProgress], None]


@dataclass
class ImportReport:
    root: str = ""
    target: str = ""
    extractor: str = "none"
    extractor_note: str | None = None  # why the model was not used
    notes: int = 0
    imported: int = 0
    unchanged: int = 0
    skipped: list[SkippedFile] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    failed: list[SkippedFile] = field(default_factory=list)  # extraction failed; retried next time
    cut: list[SkippedFile] = field(default_factory=list)  # imported, but shortened (and why)
    links: int = 0
    broken_links: int = 0
    propositions: int = 0  # new nodes
    evidence: int = 0  # evidence added to existing nodes
    edges: int = 0
    dropped: int = 0
    upkeep: UpkeepReport | None = None
    usage: Usage | None = None  # the extractor's and auditor's calls (None: no model ran)
    seconds: float = 0.0
    # An Anki deck's learner side: decks, reviews imported, cards queued (None: not a deck)
    anki: dict[str, int] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "root": self.root,
            "target": self.target,
            "extractor": self.extractor,
            "extractor_note": self.extractor_note,
            "notes": self.notes,
            "imported": self.imported,
            "unchanged": self.unchanged,
            "skipped": [{"path": s.path, "reason": s.reason} for s in self.skipped],
            "failed": [{"path": s.path, "reason": s.reason} for s in self.failed],
            "cut": [{"path": s.path, "reason": s.reason} for s in self.cut],
            "deleted": list(self.deleted),
            "links": self.links,
            "broken_links": self.broken_links,
            "propositions": self.propositions,
            "evidence": self.evidence,
            "edges": self.edges,
            "dropped": self.dropped,
            "upkeep": self.upkeep.to_dict() if self.upkeep else None,
            "usage": self.usage.model_dump(mode="json") if self.usage else None,
            "seconds": round(self.seconds, 3),
            "anki": self.anki,
        }
