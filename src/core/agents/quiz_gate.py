"""Prerequisite gating of quizzes (seed 000 §7): no hard question on a concept until each of its
prerequisites has mastery ≥ 0.7. A refused quiz goes back to the model as a tool error naming
what to teach first ("teach “Trees” (node n_1) first: its mastery is 0.42").

What a quiz checks (its *subject*): the graph node it names (``node_id``), else the graph node
its plan step's label matched (the runtime looks it up), else the plan step alone. Its
prerequisites, each needing ≥ 0.7:
- the subject node's direct ``follows`` predecessors in the graph (what ``GET /api/graph``
  reports as ``blocked_by``);
- the plan step's direct predecessors in the approved plan (an arrow ``A --> B``; an open
  link ``A --- B`` states no order), scored by their matched graph node when there is one.
A prerequisite's score includes this session's graded answers on it (a quiz that named it or
was tagged with its step) that the graph has not linked yet, so teaching it and checking it
with an easy question opens the gate at once. Pure: the runtime gives the learner model, the
plan-step matches and the transcript.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from studyhall.core.agents.tools import Tool, ToolContext
from studyhall.core.classroom.quiz_answers import SessionAnswer
from studyhall.core.contracts.plan import Plan
from studyhall.core.library.learner.evidence import all_signals
from studyhall.core.library.learner.mastery import GATE_BELOW, Signal, prerequisites, score
from studyhall.core.library.learner.model import LearnerModel

NAME_CHARS = 80  # a node is named by its text, clipped to this

Gate = Callable[[dict[str, Any], ToolContext], Awaitable[list[str]]]


@dataclass(frozen=True)
class Prerequisite:
    name: str  # how the model finds it: '“Trees” (node n_1)' or 'plan step A “Trees”'
    score: float | None  # None: not tried
    node_id: str | None = None
    plan_node: str | None = None

    @property
    def ready(self) -> bool:
        return self.score is not None and self.score >= GATE_BELOW


@dataclass(frozen=True)
class QuizSubject:
    name: str  # how the quiz's concept is named in a refusal
    node_id: str | None = None  # the graph node it checks, if known
    plan_node: str | None = None  # the approved plan's step it is tagged with


def hard_questions(args: Mapping[str, Any]) -> list[int]:
    """Indices of the questions marked hard."""
    questions = args.get("questions")
    if not isinstance(questions, list):
        return []
    return [i for i, q in enumerate(questions)
            if isinstance(q, dict) and q.get("difficulty") == "hard"]


def node_name(model: LearnerModel, node_id: str) -> str:
    node = model.snapshot.node(node_id)
    text = node.text if node is not None else node_id
    text = " ".join(text.split())
    if len(text) > NAME_CHARS:
        text = text[:NAME_CHARS].rsplit(" ", 1)[0] + "…"
    return f"“{text}” (node {node_id})"


def step_name(plan: Plan, step_id: str) -> str:
    label = next((n.label for n in plan.nodes if n.id == step_id), step_id)
    return f"plan step {step_id} “{' '.join(label.split())}”"


def node_score(model: LearnerModel, node_id: str,
               answers: Sequence[SessionAnswer] = ()) -> float | None:
    """The node's mastery with ``answers`` (this session's, about it) the graph lacks."""
    node = model.snapshot.node(node_id)
    if node is None:
        return None
    if not answers:
        return model.score(node_id).value
    signals = all_signals(node, model.learner.signals)
    known = {s.ref for s in signals if s.kind == "quiz"}
    extra = [_signal(a) for a in answers if a.ref not in known]
    return score([*signals, *extra]).value if extra else model.score(node_id).value


def answers_score(answers: Sequence[SessionAnswer]) -> float | None:
    """Mastery from this session's answers alone (a plan step no graph node stands for)."""
    return score([_signal(a) for a in answers]).value


def _signal(answer: SessionAnswer) -> Signal:
    return Signal(answer.at, "quiz", answer.verdict, answer.ref, answer.difficulty or "")


def prerequisites_of(subject: QuizSubject, model: LearnerModel, *, plan: Plan | None = None,
                     matches: Mapping[str, str | None] | None = None,
                     answers: Sequence[SessionAnswer] = ()) -> list[Prerequisite]:
    """The subject's prerequisites with their scores, graph ones first (each listed once).
    ``matches``: plan step id -> the graph node its label matched (None: no close node)."""
    matches = matches or {}

    def about_node(node_id: str) -> list[SessionAnswer]:
        return [a for a in answers if a.node_id == node_id
                or (a.node_id is None and a.plan_node is not None
                    and matches.get(a.plan_node) == node_id)]

    found: dict[str, Prerequisite] = {}
    if subject.node_id is not None:
        follows = [(e.source, e.target) for e in model.snapshot.edges if e.kind == "follows"]
        for p in sorted(set(prerequisites(follows).get(subject.node_id, ()))):
            if p != subject.node_id and model.snapshot.node(p) is not None:
                found[p] = Prerequisite(node_name(model, p), node_score(model, p, about_node(p)),
                                        node_id=p)
    if plan is not None and subject.plan_node is not None:
        before = sorted({e.source for e in plan.edges
                         if e.target == subject.plan_node and e.kind != "open"})
        for step in before:
            match = matches.get(step)
            if match is not None and model.snapshot.node(match) is not None:
                if match != subject.node_id:  # also a graph prerequisite: named both ways
                    found[match] = Prerequisite(
                        f"{step_name(plan, step)}, i.e. {node_name(model, match)}",
                        node_score(model, match, about_node(match)), node_id=match,
                        plan_node=step)
                continue
            tagged = [a for a in answers if a.plan_node == step and a.node_id is None]
            found[f"step:{step}"] = Prerequisite(step_name(plan, step), answers_score(tagged),
                                                 plan_node=step)
    return list(found.values())


def gate_problems(hard: Sequence[int], subject: QuizSubject,
                  prereqs: Sequence[Prerequisite]) -> list[str]:
    """The refusal, one line per prerequisite to teach first; empty when the quiz may go."""
    blocking = [p for p in prereqs if not p.ready]
    if not hard or not blocking:
        return []
    asked = " and ".join(f"questions[{i}]" for i in hard)
    verb = "is" if len(hard) == 1 else "are"
    lines = [
        (f"{asked} {verb} hard, but {subject.name} builds on what the learner has not learnt "
        f"yet: a hard question waits until every prerequisite has mastery ≥ {GATE_BELOW:.1f}. "
        "Teach the prerequisite and check it with an easy or medium question first (name it "
        "with node_id or tag its plan step), or ask this question as easy or medium now.")
    ]
    for p in blocking:
        why = f"its mastery is {p.score:.2f}" if p.score is not None else "not tried yet"
        lines.append(f"teach {p.name} first: {why}")
    return lines


def gated(tool: Tool, gate: Gate) -> Tool:
    """``tool`` whose arguments, once valid, must also pass ``gate``."""
    base = tool.check

    async def check(args: dict[str, Any], ctx: ToolContext) -> list[str]:
        checked = base(args, ctx)
        problems = await checked if inspect.isawaitable(checked) else checked
        return problems if problems else await gate(args, ctx)

    return replace(tool, check=check)
