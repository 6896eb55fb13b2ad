"""Today's reads behind ``Learner.today()``: the open sessions at their next plan step (read from
the chat store with the classroom's own folds), the imported sources a topic can be quizzed
from, and the learner model; the steps themselves are ``core/library/learner/today.py``'s.
Blocking (file reads, FSRS replays): for a worker thread."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from studyhall.core.classroom.phases import derive_phase, tool_calls
from studyhall.core.classroom.plan_status import current_plan, derive_plan_statuses
from studyhall.core.classroom.turn_state import was_rejected
from studyhall.core.contracts.chat import ChatRecord, Message
from studyhall.core.contracts.goals import Goal
from studyhall.core.library.learner.goals import GoalProgress
from studyhall.core.library.learner.misconceptions import Misconception
from studyhall.core.library.learner.model import LearnerModel
from studyhall.core.library.learner.today import GoalStanding, OpenSession, Today, today
from studyhall.core.ports.storage import ChatStore, SourceStore

RECENT_SESSIONS = 20  # the newest sessions looked at: an older one is not "today"
_QUIZZABLE = frozenset({"imported", "unchanged"})  # a source the reader opens with Quiz me


def today_plan(model: LearnerModel, chats: ChatStore, sources: SourceStore, *,
               has_model: bool, patterns: Sequence[Misconception] = (),
               goals: Sequence[tuple[Goal, GoalProgress]] = ()) -> Today:
    summaries = chats.list()
    opened: list[OpenSession] = []
    for summary in summaries[:RECENT_SESSIONS]:
        if summary.message_count == 0 or opened:
            continue  # an empty session is not something to continue; one is enough
        record = chats.get(summary.id)
        found = open_session(record) if record is not None else None
        if found is not None:
            opened.append(found)
    known = {s.id for s in sources.list() if s.status in _QUIZZABLE}
    standing = [GoalStanding(g.id, g.text, g.chat_ids, p.solid, len(p.steps),
                             p.next.label if p.next else None,
                             p.next_index + 1 if p.next_index is not None else None)
                for g, p in goals]
    return today(model, opened, note_of=_first_of(known), has_model=has_model,
                 has_sessions=bool(summaries), has_notes=bool(known), patterns=patterns,
                 goals=standing)


def open_session(record: ChatRecord) -> OpenSession | None:
    """The session where it stands: at its current plan step while that step's quiz waits, else
    at the first step not yet visited; None once every step was quizzed and answered (it is
    finished: nothing to continue)."""
    messages = list(record.messages)
    phase = derive_phase(messages)
    title = record.title or record.topic or "Untitled session"
    base = OpenSession(record.id, title, phase, record.updated_at)
    if phase != "teach":
        return base
    approved = current_plan(messages)
    if approved is None or not approved.plan.nodes:
        return base
    statuses = derive_plan_statuses(approved.plan, messages)
    nodes = approved.plan.nodes
    at = next((k for k, n in enumerate(nodes) if statuses[n.id] == "current"), None)
    if at is None or _answered(messages, nodes[at].id):
        at = next((k for k, n in enumerate(nodes) if statuses[n.id] == "upcoming"), None)
    if at is None:
        return None
    return OpenSession(record.id, title, phase, record.updated_at,
                       next_step=nodes[at].label or nodes[at].id, step=at + 1, steps=len(nodes))


def _answered(messages: Sequence[Message], node_id: str) -> bool:
    """Whether the latest quiz on that plan step was answered (the step was checked)."""
    tagged = [p for p in tool_calls(messages, "quiz")
              if p.input.get("plan_node") == node_id and not was_rejected(p)]
    return bool(tagged) and tagged[-1].state == "output-available"


def _first_of(known: set[str]) -> Callable[[Sequence[str]], str | None]:
    def note_of(node_sources: Sequence[str]) -> str | None:
        return next((s for s in node_sources if s in known), None)
    return note_of
