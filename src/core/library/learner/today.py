"""Today: what the learner does now, as at most five steps in a fixed order — due reviews, the
open session at its next plan step, a goal at the step it resumes at, the next topic to learn,
a misconception to revisit (a pattern of the same wrong answer first, else a mix-up a session
saw), and import/ask when there is nothing yet. Pure: one ``LearnerModel`` plus what the runtime read of
the sessions and the imported notes; nothing is stored (a fold over the evidence, like mastery).

Each step's ``action`` is what one click does: a ``#/...`` route the window opens, and for a
topic with a model at hand, the session to start on it (``session``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Literal
from urllib.parse import quote

from studyhall.core.library.learner.insight import clip
from studyhall.core.library.learner.mastery import GATE_BELOW, Score, gate, prerequisites
from studyhall.core.library.learner.misconceptions import Misconception
from studyhall.core.library.learner.model import LearnerModel

MAX_STEPS = 5
# Rough time per card (Anki's own statistics put a review near 10-20 s; a first sight is
# slower): enough to say "about 6 min", never a promise.
REVIEW_SECONDS, NEW_SECONDS = 20, 45
TITLE_CHARS = 60

StepKind = Literal["review", "session", "goal", "learn", "misconception", "import", "ask"]
TodayState = Literal["empty", "busy", "done"]


@dataclass(frozen=True)
class OpenSession:
    """A session still going, as the classroom reads it: where its plan stands."""

    chat_id: str
    title: str
    phase: str  # probe, plan or teach
    updated_at: datetime
    next_step: str | None = None  # the plan step to continue at (teach phase)
    step: int | None = None  # its place in the plan, from 1
    steps: int | None = None  # how many steps the plan has


@dataclass(frozen=True)
class GoalStanding:
    """A goal as its progress reads now (``core/library/learner/goals.py``)."""

    goal_id: str
    text: str
    chat_ids: tuple[str, ...]
    solid: int  # steps solid
    total: int  # steps in its plan (0: no plan yet)
    next_step: str | None  # the step a new session resumes at
    number: int | None  # its place in the plan, from 1


@dataclass(frozen=True)
class TodayStep:
    kind: StepKind
    title: str
    why: str
    action: dict[str, Any]  # {"label", "href", "session"?: {"topic", "node_id"}, "goal_id"?}
    extra: Mapping[str, Any] = field(default_factory=dict)

    def json(self) -> dict[str, Any]:
        return {"kind": self.kind, "title": self.title, "why": self.why,
                "action": self.action, **self.extra}


@dataclass(frozen=True)
class Today:
    state: TodayState  # empty: nothing imported, no session; done: nothing left for today
    steps: tuple[TodayStep, ...]
    next_review: date | None = None  # the first day after today with a card due
    goals: int = 0  # the learner's goals, steps or not (Today's line about goals says so)

    def json(self) -> dict[str, Any]:
        return {"state": self.state, "steps": [s.json() for s in self.steps],
                "next_review": self.next_review.isoformat() if self.next_review else None,
                "goals": self.goals}


def today(model: LearnerModel, sessions: Sequence[OpenSession], *,
          note_of: Callable[[Sequence[str]], str | None], has_model: bool,
          has_sessions: bool, has_notes: bool,
          patterns: Sequence[Misconception] = (), goals: Sequence[GoalStanding] = ()) -> Today:
    """Today's steps. ``sessions``: the open ones, newest first; ``note_of(sources)``: the
    imported note among a node's sources (its Quiz me), if any; ``has_sessions``: any session
    at all (an open one or not); ``patterns``: the live misconception patterns, latest first
    (``misconceptions.py``); ``goals``: the learner's, newest first."""
    if not model.snapshot.nodes and not has_sessions and not goals:
        return Today("empty", (_import_step(), _ask_step()))
    scores = {n.id: model.score(n.id) for n in model.snapshot.nodes}
    steps = [s for s in (
        _review_step(model),
        _session_step(sessions[0]) if sessions else None,
        _goal_step(goals, sessions[0].chat_id if sessions else None, has_model),
        _learn_step(model, scores, note_of, has_model, goals),
        (_pattern_step(model, patterns[0], note_of, has_model) if patterns
         else _misconception_step(model, scores, note_of, has_model)),
    ) if s is not None]
    if not has_notes:
        steps.append(_import_step())
    upcoming = model.plan.upcoming
    return Today("busy" if steps else "done", tuple(steps[:MAX_STEPS]),
                 min(upcoming) if upcoming else None, goals=len(goals))


def _review_step(model: LearnerModel) -> TodayStep | None:
    due = model.plan.due
    if not due:
        return None
    new = sum(1 for d in due if d.kind == "new")
    overdue = sum(1 for d in due if d.overdue)
    minutes = max(1, math.ceil(((len(due) - new) * REVIEW_SECONDS + new * NEW_SECONDS) / 60))
    cards = "card" if len(due) == 1 else "cards"
    parts = [f"{overdue} overdue"] if overdue else []
    if new:
        parts.append(f"{new} new")
    which = f" ({', '.join(parts)})" if parts else ""
    why = (f"{len(due)} {cards} due today{which}, about {minutes} min. Reviewing now keeps "
           "them from fading.")
    return TodayStep("review", f"Review {len(due)} {cards}", why,
                     {"label": "Start reviewing", "href": "#/review"},
                     {"count": len(due), "minutes": minutes, "new": new, "overdue": overdue})


def _session_step(open_session: OpenSession) -> TodayStep:
    s = open_session
    name = clip(s.title, TITLE_CHARS)
    href = f"#/session/{quote(s.chat_id, safe='')}"
    extra: dict[str, Any] = {"chat_id": s.chat_id, "step": s.step, "of": s.steps}
    if s.phase == "teach" and s.next_step:
        where = f"step {s.step} of {s.steps}" if s.step and s.steps else "its next step"
        title = f"Continue “{name}”"
        why = f"Pick up at {where}: {clip(s.next_step, TITLE_CHARS)}."
    elif s.phase == "plan":
        title, why = f"Continue “{name}”", "The plan for this session is waiting for you."
    else:
        title = f"Continue “{name}”"
        why = "The tutor is still finding out what you already know."
    return TodayStep("session", title, why, {"label": "Continue", "href": href}, extra)


def _goal_step(goals: Sequence[GoalStanding], open_chat: str | None,
               has_model: bool) -> TodayStep | None:
    """The newest goal with a step left, unless the open session already continues it. With
    no model the click opens the goal (a session needs one)."""
    g = next((g for g in goals if g.next_step is not None or not g.total), None)
    if g is None or (open_chat is not None and open_chat in g.chat_ids):
        return None
    name = clip(g.text, TITLE_CHARS)
    if g.next_step is None:
        why = "It has no plan yet: a session on it sets one out, and later ones resume there."
    else:
        why = (f"Resume at step {g.number} of {g.total}: {clip(g.next_step, TITLE_CHARS)} "
               f"({g.solid} of {g.total} steps solid).")
    href = f"#/goals?goal={quote(g.goal_id, safe='')}"
    return TodayStep("goal", f"Continue your goal “{name}”", why,
                     {"label": "Start a session on it" if has_model else "See the goal",
                      "href": href, "goal_id": g.goal_id},
                     {"goal_id": g.goal_id, "step": g.number, "of": g.total, "solid": g.solid})


def _topic_action(model: LearnerModel, node_id: str, label: str,
                  note_of: Callable[[Sequence[str]], str | None], has_model: bool,
                  verb: str) -> dict[str, Any]:
    """With a model: a session on the topic. Without: its note's Quiz me, or the node in the
    map (where its evidence is) when no imported note holds it."""
    note = note_of(model.node(node_id).sources)
    if has_model:
        href = f"#/?node={quote(node_id, safe='')}"
        return {"label": f"{verb} in a session", "href": href,
                "session": {"topic": label, "node_id": node_id}}
    if note is not None:
        return {"label": "Quiz me on the note",
                "href": f"#/sources/{quote(note, safe='')}?quiz=1"}
    return {"label": "Show it on the map", "href": f"#/?node={quote(node_id, safe='')}"}


_WORD = re.compile(r"[^\W\d_]{4,}")
# A goal's own framing words name no topic ("learn graph algorithms by March").
_GOAL_WORDS = frozenset(["learn", "learning", "understand", "know", "study", "master", "practice", "revise", "review", "about", "with", "from", "into", "before", "after", "until", "then", "them", "this", "that", "what", "basic", "basics", "more", "much", "january", "february", "march", "april", "june", "july", "august", "september", "october", "november", "december", "week", "month", "year"])


def _stems(text: str) -> set[str]:
    """Words of four letters or more, a plural's ``s`` dropped: "Graph algorithms" -> graph,
    algorithm (the goal and the topic are worded by the learner and the note alike)."""
    return {w[:-1] if w.endswith("s") and not w.endswith("ss") else w
            for w in (m.lower() for m in _WORD.findall(text)) if w not in _GOAL_WORDS}


def _goal_for(text: str, goals: Sequence[GoalStanding]) -> GoalStanding | None:
    """The first goal (newest first) whose next step, or whose own words, name this topic."""
    mine = _stems(text)
    for goal in goals:
        if mine & _stems(f"{goal.next_step or ''} {goal.text}"):
            return goal
    return None


def _learn_step(model: LearnerModel, scores: Mapping[str, Score],
                note_of: Callable[[Sequence[str]], str | None],
                has_model: bool, goals: Sequence[GoalStanding] = ()) -> TodayStep | None:
    """The untried topic whose prerequisites pass the gate: one a goal names first, then the
    most linked to what the learner knows (then the one with the most prerequisites met, then
    the most linked overall)."""
    snapshot = model.snapshot
    follows = [(e.source, e.target) for e in snapshot.edges if e.kind == "follows"]
    before = prerequisites(follows)
    values = {i: s.value for i, s in scores.items()}
    known = {i for i, s in scores.items() if s.value is not None and s.value >= GATE_BELOW}
    links: dict[str, set[str]] = {}
    degree: dict[str, int] = {}
    for e in snapshot.edges:
        for a, b in ((e.source, e.target), (e.target, e.source)):
            degree[a] = degree.get(a, 0) + 1
            if b in known:
                links.setdefault(a, set()).add(b)
    best: tuple[tuple[int, int, int, int, int], str] | None = None
    for k, node in enumerate(snapshot.nodes):
        if scores[node.id].value is not None or node.id in model.plan.cards:
            continue  # tried or queued for review: the review step has it
        mine = [p for p in before.get(node.id, ()) if p in scores and p != node.id]
        if not gate(node.id, {node.id: mine}, values).ready:
            continue
        named = goals and _goal_for(node.text, goals) is not None
        key = (0 if named else 1, -len(links.get(node.id, ())), -len(mine),
               -degree.get(node.id, 0), k)
        if best is None or key < best[0]:
            best = (key, node.id)
    if best is None:
        return None
    node_id = best[1]
    label = clip(model.node(node_id).text, TITLE_CHARS).rstrip(".")
    mine = sorted(p for p in before.get(node_id, ()) if p in known)
    near = sorted(links.get(node_id, ()))
    goal = _goal_for(model.node(node_id).text, goals) if goals else None
    if goal is not None:
        why = f"On the way to your goal “{clip(goal.text, TITLE_CHARS)}”."
        if mine:
            why += " Its prerequisites are solid: " + _names(model, mine) + "."
    elif mine:
        why = "Its prerequisites are solid: " + _names(model, mine) + "."
    elif near:
        why = "Linked to what you already know: " + _names(model, near) + "."
    elif degree.get(node_id, 0):
        # Nothing known yet: the most linked topic not yet tried, a hub of the learner's notes.
        why = ("A good place to start: nothing comes before it, and it is linked more than "
               f"anything else you have not tried ({degree[node_id]} links).")
    else:
        why = "A good place to start: nothing comes before it."
    action = _topic_action(model, node_id, label, note_of, has_model, "Learn it")
    return TodayStep("learn", f"Learn “{label}”", why, action,
                     {"node_id": node_id, "prerequisites": mine, "linked_known": len(near)})


def _misconception_step(model: LearnerModel, scores: Mapping[str, Score],
                        note_of: Callable[[Sequence[str]], str | None],
                        has_model: bool) -> TodayStep | None:
    """The latest misconception the evidence shows and later evidence has not corrected."""
    latest: tuple[datetime, str] | None = None
    for node_id, s in scores.items():
        if s.state in ("solid", "corrected-misconception"):
            continue
        seen = [sig.at for sig in s.signals if sig.label == "misconception"]
        if seen and (latest is None or (max(seen), node_id) > latest):
            latest = (max(seen), node_id)
    if latest is None:
        return None
    at, node_id = latest
    label = clip(model.node(node_id).text, TITLE_CHARS).rstrip(".")
    why = (f"On {at:%b} {at.day} a session showed you mixing this up, and nothing since shows "
           "it cleared up.")
    action = _topic_action(model, node_id, label, note_of, has_model, "Revisit it")
    return TodayStep("misconception", f"Revisit “{label}”", why, action,
                     {"node_id": node_id, "seen_at": at.isoformat()})


def _pattern_step(model: LearnerModel, pattern: Misconception,
                  note_of: Callable[[Sequence[str]], str | None],
                  has_model: bool) -> TodayStep:
    """The latest misconception pattern: the same wrong answer, again and again."""
    node_id = pattern.node_id
    label = clip(model.node(node_id).text, TITLE_CHARS).rstrip(".")
    why = (f"{pattern.line}, last on {pattern.last_at:%b} {pattern.last_at.day}. A few right "
           "answers will set it straight.")
    action = _topic_action(model, node_id, label, note_of, has_model, "Revisit it")
    return TodayStep("misconception", f"Revisit “{label}”", why, action,
                     {"node_id": node_id, "seen_at": pattern.last_at.isoformat(),
                      "pattern": pattern.json()})


def _import_step() -> TodayStep:
    return TodayStep("import", "Bring in your notes",
                     "Import a Markdown or Obsidian folder, lectures or PDFs: what to learn "
                     "next comes from them.", {"label": "Import notes", "href": "#/sources"})


def _ask_step() -> TodayStep:
    return TodayStep("ask", "Ask a question",
                     "Ask about anything you want to learn; once notes are in, answers cite "
                     "them.",
                     {"label": "Ask", "href": "#/ask"})


def _names(model: LearnerModel, node_ids: Sequence[str], most: int = 3) -> str:
    names = [f"“{clip(model.node(i).text, 40).rstrip('.')}”" for i in node_ids[:most]]
    more = len(node_ids) - most
    return ", ".join(names) + (f" and {more} more" if more > 0 else "")
