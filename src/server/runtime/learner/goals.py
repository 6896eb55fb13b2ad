"""``GoalDesk``: the only writer of the goals store, behind the ``Learner`` façade — create,
change, delete a goal; attach a session started on it; take a session's approved plan back into
it — and the goals' reads with their progress (``core/library/learner/goals.py``).

A goal's plan is checked by the one plan parser (``core/classroom/plan_parser.py``) and kept as
its canonical render; its text is made inert and length-capped (``contracts.goals.goal_text``).
Methods are blocking (file reads, the learner model): callers run them off the event loop. One
lock makes each read-change-save a single step.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from studyhall.core.classroom.phases import tool_calls
from studyhall.core.classroom.plan_json import plan_json
from studyhall.core.classroom.plan_parser import parse_plan
from studyhall.core.classroom.plan_render import render_mermaid
from studyhall.core.classroom.plan_status import current_plan
from studyhall.core.classroom.turn_state import was_rejected
from studyhall.core.contracts.chat import Message
from studyhall.core.contracts.goals import (
    MAX_GOAL_CHARS,
    MAX_GOAL_SESSIONS,
    MAX_GOALS,
    Goal,
    GoalPlan,
    GoalRemoved,
    GoalSaved,
    goal_removal_id,
    goal_text,
    live_goals,
)
from studyhall.core.contracts.plan import Plan
from studyhall.core.contracts.steers import goal_steer_id, steer_message
from studyhall.core.errors import Conflict, InvalidInput, NotFound
from studyhall.core.library.learner.goal_brief import goal_brief, goal_brief_data
from studyhall.core.library.learner.goals import GoalProgress, goal_progress, label_nodes
from studyhall.core.library.learner.model import LearnerModel
from studyhall.core.ports.storage import ChatStore, GoalStore, GraphStore
from studyhall.core.ports.system import Clock, Ids

UNSET: Any = object()  # a PATCH field the request left out (None clears it)


@dataclass(frozen=True)
class GoalOpening:
    """What a session started on a goal begins with: its topic and the teacher's goal steer."""

    goal: Goal
    topic: str
    step: str | None  # the step it resumes at (the graph context's topic)
    progress: GoalProgress


class GoalDesk:
    def __init__(self, *, store: GoalStore, chats: ChatStore, graph_store: GraphStore,
                 clock: Clock, ids: Ids) -> None:
        self._store = store
        self._chats = chats
        self._graph_store = graph_store
        self._clock = clock
        self._ids = ids
        self._lock = threading.Lock()
        self._named: tuple[object, tuple[tuple[str, str], ...], dict[str, str | None]] | None = None

    # --- writes ----------------------------------------------------------------------------

    def create(self, text: str, target: date | None = None,
               plan: Mapping[str, str] | None = None) -> Goal:
        with self._lock:
            if len(self._live()) >= MAX_GOALS:
                raise Conflict(f"You have {MAX_GOALS} goals; delete one before adding another.")
            now = self._clock.now()
            goal = Goal(id=self._ids.new("goal"), text=_text(text), target=target,
                        plan=_plan(plan) if plan is not None else None,
                        created_at=now, updated_at=now)
            self._save(goal)
            return goal

    def update(self, goal_id: str, *, text: str = UNSET, target: date | None = UNSET,
               plan: Mapping[str, str] | None = UNSET) -> Goal:
        with self._lock:
            goal = self._get(goal_id)
            change: dict[str, Any] = {"updated_at": self._clock.now()}
            if text is not UNSET:
                change["text"] = _text(text)
            if target is not UNSET:
                change["target"] = target
            if plan is not UNSET:
                change["plan"] = None if plan is None else _plan(plan)
            goal = goal.model_copy(update=change)
            self._save(goal)
            return goal

    def delete(self, goal_id: str) -> None:
        with self._lock:
            self._get(goal_id)
            self._store.remove([GoalRemoved(id=goal_removal_id(goal_id), goal_id=goal_id,
                                            at=self._clock.now())])

    def attach(self, goal_id: str, chat_id: str) -> Goal:
        """The session ``chat_id`` was started on the goal (its plan flows back after turns)."""
        with self._lock:
            goal = self._get(goal_id)
            chats = (*goal.chat_ids, chat_id)[-MAX_GOAL_SESSIONS:]
            goal = goal.model_copy(update={"chat_ids": chats, "updated_at": self._clock.now()})
            self._save(goal)
            return goal

    def take_session_plan(self, chat_id: str) -> bool:
        """After a turn: the session's latest approved plan becomes its goal's plan when it
        differs. False when the chat is on no goal or its plan is the goal's already."""
        goal = next((g for g in self._live() if chat_id in g.chat_ids), None)
        record = self._chats.get(chat_id) if goal is not None else None
        approved = current_plan(list(record.messages)) if record is not None else None
        if goal is None or approved is None:
            return False
        plan = GoalPlan(title=_clip(approved.title), mermaid=render_mermaid(approved.plan))
        with self._lock:
            goal = self._get(goal.id)
            if goal.plan == plan:
                return False
            self._save(goal.model_copy(update={"plan": plan, "updated_at": self._clock.now()}))
            return True

    # --- reads -----------------------------------------------------------------------------

    def goals(self) -> list[Goal]:
        return self._live()

    def goal(self, goal_id: str) -> Goal:
        return self._get(goal_id)

    def progress(self, goals: Sequence[Goal], model: LearnerModel) -> list[GoalProgress]:
        """Each goal's progress over one learner model (the label match reads the nodes once)."""
        plans = [_parsed(g) for g in goals]
        labels = {f"{k}:{n.id}": n.label or n.id
                  for k, p in enumerate(plans) if p is not None for n in p.nodes}
        named = self._label_nodes(labels, model)
        quizzed = self._quizzed(goals, plans, model)
        out = []
        for k, (goal, plan) in enumerate(zip(goals, plans, strict=True)):
            mine = {step.split(":", 1)[1]: node for step, node in named.items()
                    if step.startswith(f"{k}:")}
            out.append(goal_progress(plan, quizzed.get(goal.id, {}), mine, model.score))
        return out

    def view(self, goal: Goal, progress: GoalProgress) -> dict[str, Any]:
        plan = _parsed(goal)
        steps = {s.id: s for s in progress.steps}
        nxt = progress.next
        statuses: dict[str, Any] = {
            i: "solid" if s.solid else ("next" if nxt is not None and i == nxt.id else "open")
            for i, s in steps.items()}
        return {
            **goal.model_dump(mode="json", exclude={"plan"}),
            "plan": None if goal.plan is None or plan is None else {
                "title": goal.plan.title, "mermaid": goal.plan.mermaid,
                **plan_json(plan, statuses=statuses)},
            "progress": progress.json(),
        }

    def opening(self, goal_id: str, model: LearnerModel) -> GoalOpening:
        goal = self._get(goal_id)
        (progress,) = self.progress([goal], model)
        step = progress.next.label if progress.next is not None else None
        return GoalOpening(goal, _clip(goal.text), step, progress)

    def steer(self, opening: GoalOpening, chat_id: str) -> Message:
        return steer_message(goal_steer_id(chat_id), "context",
                             goal_brief(opening.goal, opening.progress), self._clock.now(),
                             data_name="goal-context",
                             data=goal_brief_data(opening.goal, opening.progress))

    # --- inside ----------------------------------------------------------------------------

    def _label_nodes(self, labels: dict[str, str], model: LearnerModel) -> dict[str, str | None]:
        """The label match, kept while the graph read and the labels stay the same (the app's
        reader hands out one snapshot until the graph changes): Today and the goals screen
        read it again and again; it costs about a second at 20,000 nodes (bench/goals.py)."""
        key = tuple(sorted(labels.items()))
        kept = self._named
        if kept is not None and kept[0] is model.snapshot and kept[1] == key:
            return kept[2]
        named = label_nodes(labels, [(n.id, n.text) for n in model.snapshot.nodes])
        self._named = (model.snapshot, key, named)
        return named

    def _live(self) -> list[Goal]:
        return live_goals(self._store.saved().records, self._store.removed().records)

    def _get(self, goal_id: str) -> Goal:
        goal = next((g for g in self._live() if g.id == goal_id), None)
        if goal is None:
            raise NotFound(f"There is no goal {goal_id!r}. GET /api/goals lists yours.")
        return goal

    def _save(self, goal: Goal) -> None:
        self._store.save([GoalSaved(id=self._ids.new("goalv"), goal=goal)])

    def _quizzed(self, goals: Sequence[Goal], plans: Sequence[Plan | None],
                 model: LearnerModel) -> dict[str, dict[str, list[str]]]:
        """goal id → step id → the nodes its tagged quizzes in the goal's sessions graded."""
        calls: dict[tuple[str, str], tuple[str, str]] = {}  # (chat, call) → (goal, step)
        for goal, plan in zip(goals, plans, strict=True):
            ids = {n.id for n in plan.nodes} if plan is not None else set()
            for chat_id in goal.chat_ids if ids else ():
                record = self._chats.get(chat_id)
                for part in tool_calls(record.messages if record else (), "quiz"):
                    step = part.input.get("plan_node")
                    if isinstance(step, str) and step in ids and not was_rejected(part):
                        calls[(chat_id, part.tool_call_id)] = (goal.id, step)
        out: dict[str, dict[str, list[str]]] = {}
        if not calls:
            return out
        for event in self._graph_store.quiz_events().records:
            hit = calls.get((event.source_id, event.tool_call_id))
            if hit is not None and model.snapshot.node(event.node_id) is not None:
                out.setdefault(hit[0], {}).setdefault(hit[1], []).append(event.node_id)
        return out


def _text(text: str) -> str:
    clean = goal_text(text) if isinstance(text, str) else ""
    if not clean:
        raise InvalidInput('Say what the goal is in "text", e.g. "learn graph algorithms".')
    if len(clean) > MAX_GOAL_CHARS:
        raise InvalidInput(f"The goal is {len(clean)} characters; keep it under "
                           f"{MAX_GOAL_CHARS} (a sentence: what, and by when).")
    return clean


def _clip(text: str) -> str:
    return text if len(text) <= MAX_GOAL_CHARS else text[: MAX_GOAL_CHARS - 1] + "…"


def _plan(plan: Mapping[str, str]) -> GoalPlan:
    """A learner's plan, checked by the one parser and kept as its canonical render."""
    parsed = parse_plan(plan.get("mermaid", ""))
    if parsed.plan is None:
        first = "; ".join(str(e) for e in parsed.errors[:3])
        raise InvalidInput(f"The plan does not parse: {first}. It uses the same flowchart "
                           "subset as a session's plan (studyhall plan check FILE).")
    if not parsed.plan.nodes:
        raise InvalidInput("The plan has no steps: name at least one, e.g. A[Graphs].")
    return GoalPlan(title=_clip(goal_text(plan.get("title", ""))),
                    mermaid=render_mermaid(parsed.plan))


def _parsed(goal: Goal) -> Plan | None:
    return parse_plan(goal.plan.mermaid).plan if goal.plan is not None else None
