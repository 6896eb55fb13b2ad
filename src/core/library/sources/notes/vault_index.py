"""The sources index after an import: one record per note reached, per skipped file, and a
"deleted" mark for every note of that vault (under the imported path) that is gone."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from studyhall.core.contracts.sources import Source

GONE = "the file is gone from the vault"


@dataclass(frozen=True)
class NoteOutcome:
    source_id: str
    path: str
    status: Literal["imported", "unchanged", "skipped"]
    reason: str | None = None
    content_hash: str | None = None
    size: int | None = None
    links: tuple[str, ...] = ()
    broken_links: tuple[str, ...] = ()
    # The note's section anchors (``Source.sections``); None when this import could not tell
    # (a file or an extraction skipped): the sections last recorded stand.
    sections: tuple[str, ...] | None = None


def under(path: str, target: str) -> bool:
    """Whether a vault-relative path lies in the imported target ("" = the whole vault)."""
    return not target or path == target or path.startswith(target.rstrip("/") + "/")


def source_records(
    root: str,
    target: str,
    outcomes: Iterable[NoteOutcome],
    present: set[str],
    previous: Sequence[Source],
    now: datetime,
    *,
    complete: bool,
) -> tuple[list[Source], list[str]]:
    """(records to save, paths newly deleted). ``present`` holds the ids of every note the scan
    found, reached or not; only a complete import may call the rest deleted."""
    known = {s.id: s.sections for s in previous}
    fresh = [
        Source(
            id=o.source_id,
            path=o.path,
            root=root,
            kind="note",
            status=o.status,
            reason=o.reason,
            content_hash=o.content_hash,
            size=o.size,
            links=o.links,
            broken_links=o.broken_links,
            sections=o.sections if o.sections is not None else known.get(o.source_id),
            imported_at=now,
        )
        for o in outcomes
    ]
    seen = present | {s.id for s in fresh}
    deleted: list[str] = []
    for old in previous if complete else ():
        if (
            old.root == root
            and old.kind == "note"
            and old.id not in seen
            and under(old.path, target)
            and old.status != "deleted"
        ):
            deleted.append(old.path)
            fresh.append(
                old.model_copy(update={"status": "deleted", "reason": GONE, "imported_at": now})
            )
    return fresh, sorted(deleted)
