"""Coverage: the exact lines the extractor sees per message, their fingerprints, and the diff.

A message's *view* is what the extractor reads for it; its fingerprint is what the coverage
ledger stores once a run has merged it. "Uncovered" is exactly the set of views whose
fingerprint is not in the ledger (of checkpointed runs) — never tracked a second way. When a
view changes (a pending quiz gets its graded answer) its fingerprint changes and the message
is uncovered again, so the answer is extracted too.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from studyhall.core.contracts.chat import Message
from studyhall.core.contracts.graph import CoverageFingerprint
from studyhall.core.library.extraction.quiz_parts import QuizResult, render_tool_part
from studyhall.core.library.extraction.tokens import estimate_tokens


@dataclass(frozen=True)
class View:
    """One message (or note chunk) as the extractor sees it.

    ``message_id`` is what evidence cites; line ``n`` (1-based) of a view has the stable id
    ``f"{message_id}/{n}"`` so evidence may cite a single line instead of the whole message.
    """

    source_id: str
    message_id: str
    label: str  # "learner", "teacher", "prober", "note", ...
    lines: tuple[str, ...]
    fingerprint: str
    tokens: int
    at: datetime
    quizzes: tuple[QuizResult, ...] = ()

    def line_id(self, n: int) -> str:
        return f"{self.message_id}/{n}"


def fingerprint(lines: Sequence[str], message_id: str = "") -> str:
    """A stable hash of a view. The message id is part of it, so two identical short
    messages ("yes") are still two different things to cover."""
    digest = hashlib.sha256()
    digest.update(message_id.encode("utf-8"))
    for line in lines:
        digest.update(b"\n")
        digest.update(line.encode("utf-8"))
    return digest.hexdigest()[:32]


def _text_lines(text: str) -> list[str]:
    # Blank lines carry nothing to cite; trailing space is noise that would only churn hashes.
    return [line.rstrip() for line in text.splitlines() if line.strip()]


def _render(message: Message) -> tuple[list[str], list[QuizResult]]:
    if any(part.type == "steer" for part in message.parts):
        return [], []
    lines: list[str] = []
    quizzes: list[QuizResult] = []
    for part in message.parts:
        if part.type == "text":
            lines.extend(_text_lines(part.text))
        elif part.type == "tool-call":
            rendered = render_tool_part(part, default_at=message.created_at)
            lines.extend(rendered.lines)
            quizzes.extend(rendered.quizzes)
    return lines, quizzes


def message_view(message: Message) -> list[str]:
    """The exact lines the extractor sees for one chat message (empty = nothing to extract).

    Steers (system-authored messages: job results, graph context) and UI-only data parts are
    left out, and so are plan trees: the extractor is tree-blind by design.
    """
    return _render(message)[0]


def message_label(message: Message) -> str:
    if message.role == "user":
        return "learner"
    return message.agent or "teacher"


def make_view(
    source_id: str,
    message_id: str,
    label: str,
    lines: Sequence[str],
    at: datetime,
    quizzes: Sequence[QuizResult] = (),
) -> View:
    """Build a view from lines (the seam the notes importer uses for note chunks)."""
    frozen = tuple(lines)
    return View(
        source_id=source_id,
        message_id=message_id,
        label=label,
        lines=frozen,
        fingerprint=fingerprint(frozen, message_id),
        tokens=estimate_tokens(frozen),
        at=at,
        quizzes=tuple(quizzes),
    )


def chat_views(source_id: str, messages: Iterable[Message]) -> list[View]:
    """Every message with something to extract, in transcript order."""
    views: list[View] = []
    for message in messages:
        lines, quizzes = _render(message)
        if not lines:
            continue
        views.append(
            make_view(source_id, message.id, message_label(message), lines, message.created_at,
                      quizzes)
        )
    return views


def covered_fingerprints(
    records: Iterable[CoverageFingerprint], checkpointed_runs: set[str]
) -> set[str]:
    """Fingerprints that count: only those of runs that wrote their checkpoint."""
    return {r.fingerprint for r in records if r.run_id in checkpointed_runs}


def uncovered(views: Sequence[View], covered: set[str]) -> list[View]:
    """The fingerprint diff, oldest first."""
    return [view for view in views if view.fingerprint not in covered]


def uncovered_tokens(views: Sequence[View], covered: set[str]) -> int:
    return sum(view.tokens for view in uncovered(views, covered))
