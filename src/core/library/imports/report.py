"""What an import says while it runs and when it ends — one type each, from the importers to
the CLI's printer, the HTTP body and the activity feed:

- ``ImportProgress``: the stage and how far it is; every importer (notes, course material, an
  Anki deck) and the graph's upkeep after them report through one ``ProgressFn``.
- ``ImportReport``: the whole outcome — the graph's side, the search index's side
  (``MaterialSummary``), the upkeep's (``UpkeepReport``) — and ``to_dict()``, its one wire shape.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from studyhall.core.contracts.chat import Usage
from studyhall.core.contracts.material import SkippedFile
from studyhall.core.library.upkeep.report import UpkeepReport

Mode = Literal["auto", "model", "structural"]


@dataclass(frozen=True)
class ImportProgress:
    # scanning | reading | indexing | extracting | linking | embedding | clustering | layout | done
    stage: str
    done: int
    total: int
    path: str | None = None


ProgressFn = Callable[[ImportProgress], None]


def quiet(_progress: ImportProgress) -> None:
    """The ``ProgressFn`` of a caller that shows none."""


@dataclass(frozen=True)
class MaterialSummary:
    """The search index's side of an import: files (re)indexed, unchanged, skipped and removed,
    and the passages written — or, when the index could not be updated, why (the graph's side
    still stands)."""

    imported: int = 0
    unchanged: int = 0
    skipped: int = 0
    removed: int = 0
    chunks: int = 0
    error: str | None = None
    # Files (re)indexed by kind — "transcript", "pdf", "text", "note" — so the summary can say
    # "3 lectures, 2 PDFs" rather than "0 notes imported" for a folder of lectures.
    kinds: Mapping[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        if self.error is not None:
            return {"error": self.error}
        return {"imported": self.imported, "unchanged": self.unchanged, "skipped": self.skipped,
                "removed": self.removed, "chunks": self.chunks, "kinds": dict(self.kinds)}


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
    # The search index's side (None: an Anki deck, which is not course material)
    material: MaterialSummary | None = None

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
            "material": self.material.to_dict() if self.material else None,
        }
