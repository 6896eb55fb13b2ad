"""Learner goals: "learn graph algorithms by March" — the learner's words, an optional target day,
the plan that spans its sessions (the teacher's mermaid subset, stored as its canonical render)
and the sessions started on it.

Stored append-only like every ledger: each change saves the whole goal as a new version
(``GoalSaved``, its own unique id), a deletion is a tombstone (``GoalRemoved``); which goals are
live, and each one's latest version, is derived (``live_goals``), never stored.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from datetime import date, datetime

from pydantic import Field
from studyhall.core.contracts.base import Record

MAX_GOAL_CHARS = 200  # the learner's words: a sentence, not a syllabus
MAX_GOAL_SESSIONS = 500  # sessions one goal remembers (the newest kept)
MAX_GOALS = 100  # live goals at once


class GoalPlan(Record):
    """The goal's plan: a title and the mermaid source (always one ``parse_plan`` accepts)."""

    title: str = Field(default="", max_length=MAX_GOAL_CHARS)
    mermaid: str = Field(min_length=1, max_length=50_000)


class Goal(Record):
    id: str = Field(min_length=1, max_length=80)
    text: str = Field(min_length=1, max_length=MAX_GOAL_CHARS)
    target: date | None = None  # the day the learner wants it by
    plan: GoalPlan | None = None
    chat_ids: tuple[str, ...] = Field(default=(), max_length=MAX_GOAL_SESSIONS)
    created_at: datetime
    updated_at: datetime


class GoalSaved(Record):
    """One version of a goal (``goals/saved.jsonl``); the newest in append order counts."""

    id: str = Field(min_length=1, max_length=120)  # this version's own id
    goal: Goal


class GoalRemoved(Record):
    """The learner deleted a goal (``goals/removed.jsonl``); one tombstone per goal."""

    id: str = Field(min_length=1, max_length=120)
    goal_id: str = Field(min_length=1, max_length=80)
    at: datetime


def goal_removal_id(goal_id: str) -> str:
    """Deleting twice is a replay of one tombstone, not a second record."""
    return f"del_{goal_id}"


def live_goals(saved: Iterable[GoalSaved], removed: Iterable[GoalRemoved]) -> list[Goal]:
    """Each goal not deleted at its newest version, newest goal first (then by id)."""
    gone = {r.goal_id for r in removed}
    latest: dict[str, Goal] = {}
    for version in saved:
        latest[version.goal.id] = version.goal
    alive = [g for gid, g in latest.items() if gid not in gone]
    return sorted(alive, key=lambda g: (g.created_at, g.id), reverse=True)


def goal_text(text: str) -> str:
    """The learner's words made inert: control and format characters (bidi overrides,
    zero-width joiners, escapes) dropped, whitespace runs collapsed to one space. The length
    cap is checked on the result."""
    kept = "".join(" " if ch.isspace() else ch for ch in text
                   if ch.isspace() or unicodedata.category(ch)[0] != "C")
    return " ".join(kept.split())
