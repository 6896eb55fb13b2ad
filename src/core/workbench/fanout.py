"""Fan-out and assembly of study artifacts: one request, several writers in parallel, one result.

``notes`` with ``also: ["flashcards"]`` runs the notes writer and the flashcards writer at the
same time; their outputs are assembled into one artifact set. A part that failed is named in
the result (never passed off as written); the job fails only when every part failed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from studyhall.core.contracts.jobs import JobKind
from studyhall.core.workbench.kinds import ARTIFACT_KINDS, DEFAULT_CARDS


def artifact_set(kind: JobKind, job_input: Mapping[str, Any]) -> tuple[JobKind, ...]:
    """The artifacts one job writes: its own kind first, then the ``also`` ones."""
    if kind not in ARTIFACT_KINDS:
        return ()
    also = [k for k in ARTIFACT_KINDS if k != kind and k in (job_input.get("also") or [])]
    return (kind, *also)


def writer_brief(kind: JobKind, job_input: Mapping[str, Any]) -> dict[str, Any]:
    """What one writer of the set is asked: the shared subject, in the terms of its kind."""
    subject = job_input.get("topic") or job_input.get("goal") or ""
    brief: dict[str, Any] = {"topic": subject}
    if job_input.get("focus"):
        brief["focus"] = job_input["focus"]
    if kind == "flashcards":
        brief["count"] = job_input.get("count", DEFAULT_CARDS)
    if kind == "study_plan":
        brief["goal"] = job_input.get("goal") or f"Understand {subject}"
    return brief


@dataclass(frozen=True)
class Assembly:
    result: dict[str, Any]
    failed: dict[str, str]

    @property
    def ok(self) -> bool:
        return bool(self.result["artifacts"])


def assemble(order: tuple[JobKind, ...], written: Mapping[str, dict[str, Any]],
             failed: Mapping[str, str]) -> Assembly:
    """One result for the set, in request order; every part is either written or failed."""
    missing = [k for k in order if k not in written and k not in failed]
    reasons: dict[str, str] = {**failed}
    reasons.update({k: "The writer produced nothing." for k in missing})
    return Assembly(
        result={
            "artifacts": {k: written[k] for k in order if k in written},
            "failed": {k: reasons[k] for k in order if k in reasons},
        },
        failed={k: reasons[k] for k in order if k in reasons},
    )
