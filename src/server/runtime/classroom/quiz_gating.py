"""The quiz's prerequisite gate, bound to the learner model: reads it off the event loop, looks
up the graph nodes the plan's steps stand for, and lets ``core.agents.quiz_gate`` decide.

A gate that cannot read the learner model (a damaged ledger, say) lets the quiz through and logs
why: gating protects the learner from questions they are not ready for, it must never stop the
session.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from studyhall.core.agents.quiz_gate import (
    QuizSubject,
    gate_problems,
    hard_questions,
    node_name,
    prerequisites_of,
    step_name,
)
from studyhall.core.agents.tools import ToolContext
from studyhall.core.classroom.plan_status import current_plan
from studyhall.core.classroom.quiz_answers import session_answers
from studyhall.core.errors import StudyhallError
from studyhall.core.library.learner.model import LearnerModel
from studyhall.server.runtime.library.node_finder import NodeFinder

log = logging.getLogger("studyhall.learner")


class QuizGating:
    def __init__(self, model: Callable[[], Awaitable[LearnerModel]], finder: NodeFinder) -> None:
        self._model = model  # the learner model, read off the event loop
        self._finder = finder

    async def __call__(self, args: dict[str, Any], ctx: ToolContext) -> list[str]:
        try:
            return await self._problems(args, ctx)
        except StudyhallError as e:
            log.warning("[chat %s] quiz not gated, the learner model is unreadable: %s",
                        ctx.chat_id, e)
            return []

    async def _problems(self, args: dict[str, Any], ctx: ToolContext) -> list[str]:
        hard = hard_questions(args)
        node_id = args.get("node_id") if isinstance(args.get("node_id"), str) else None
        if not hard and node_id is None:
            return []  # nothing to gate, nothing to look up
        model = await self._model()
        snapshot = model.snapshot
        if node_id is not None and snapshot.node(node_id) is None:
            return [(f"node_id {node_id!r} is not a node of the learner's knowledge graph: use "
                    "an id from the session's context or concept_confidence, or leave it out")]
        if not hard:
            return []
        approved = current_plan(ctx.messages)
        plan = approved.plan if approved is not None else None
        tagged = args.get("plan_node")
        step = tagged if plan is not None and tagged in {n.id for n in plan.nodes} else None
        matches: dict[str, str | None] = {}
        if plan is not None and step is not None:
            wanted = {e.source for e in plan.edges if e.target == step and e.kind != "open"}
            if node_id is None:
                wanted.add(step)
            labels = {n.id: n.label for n in plan.nodes}
            for sid in sorted(wanted):
                matches[sid] = await self._finder.best(labels[sid], snapshot)
        subject_node = node_id if node_id is not None else matches.get(step or "")
        if subject_node is None and step is None:
            return []  # the quiz names no concept: nothing to gate on
        if node_id is not None:
            name = node_name(model, node_id)
        else:
            assert plan is not None and step is not None
            name = step_name(plan, step)
            if subject_node is not None:
                name += f", i.e. {node_name(model, subject_node)}"
        subject = QuizSubject(name, subject_node, step)
        answers = session_answers(ctx.messages)
        prereqs = await asyncio.to_thread(  # scores decode the prerequisites' trails
            lambda: prerequisites_of(subject, model, plan=plan, matches=matches, answers=answers))
        return gate_problems(hard, subject, prereqs)
