"""Goal routes: the learner's goals across sessions, each with its plan and its progress.

``GET /api/goals`` → ``{"goals": [...]}`` newest first; ``POST /api/goals`` ``{"text",
"target"?, "plan"?: {"title"?, "mermaid"}}`` → 201 the goal; ``GET /api/goals/{id}``;
``PATCH /api/goals/{id}`` (any of the three; ``null`` clears the target or the plan);
``DELETE /api/goals/{id}`` → 204. A session on a goal starts with ``POST /api/chats
{"goal_id"}``. Progress is derived at each read from the learner's evidence.
"""

from __future__ import annotations

import asyncio
from datetime import date
from typing import Annotated, Any, Literal

from pydantic import Field
from pydantic.json_schema import SkipJsonSchema
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from studyhall.core.contracts.goals import MAX_GOAL_CHARS
from studyhall.core.contracts.text_patterns import NOT_BLANK
from studyhall.core.errors import InvalidInput
from studyhall.server.http.bodies import read_model
from studyhall.server.http.body_model import BodyModel
from studyhall.server.http.openapi import describe
from studyhall.server.runtime.learner import Learner

DAY = r"^\d{4}-\d{2}-\d{2}$"


GoalText = Annotated[str, Field(min_length=1, max_length=MAX_GOAL_CHARS,
                                json_schema_extra=NOT_BLANK)]


class GoalPlanIn(BodyModel):
    title: str = Field(default="", max_length=MAX_GOAL_CHARS)
    mermaid: str = Field(min_length=1, max_length=50_000, json_schema_extra=NOT_BLANK)


class NewGoal(BodyModel):
    text: GoalText
    target: str | None = Field(default=None, pattern=DAY)  # YYYY-MM-DD
    plan: GoalPlanIn | None = None


class GoalChange(BodyModel):
    # Not nullable in the schema: a goal always says what it is (null is refused with a 400).
    text: GoalText | SkipJsonSchema[None] = None
    target: str | None = Field(default=None, pattern=DAY)
    plan: GoalPlanIn | None = None


class StepOut(BodyModel):
    id: str
    label: str
    node_ids: list[str]  # the topic nodes the step stands for
    mastery: float | None  # the weakest of them (None: untried, or none yet)
    solid: bool
    number: int | None = None  # next only: its place in the plan, from 1


class ProgressOut(BodyModel):
    solid: int
    total: int
    next: StepOut | None  # where a new session resumes (None: every step solid, or no plan)
    steps: list[StepOut]


class PlanNodeOut(BodyModel):
    id: str
    label: str
    shape: str
    group: str | None = None
    status: Literal["solid", "next", "open"]


class GoalPlanOut(BodyModel):
    title: str
    mermaid: str
    direction: str
    nodes: list[PlanNodeOut]
    edges: list[dict[str, Any]]


class GoalOut(BodyModel):
    id: str
    text: str
    target: str | None
    plan: GoalPlanOut | None
    chat_ids: list[str]  # the sessions started on it, oldest first
    created_at: str
    updated_at: str
    progress: ProgressOut


class GoalList(BodyModel):
    goals: list[GoalOut]


HINT = 'Send {"text": "learn graph algorithms", "target": "2027-03-01"}.'


def routes(learner: Learner) -> list[BaseRoute]:

    @describe(summary="Every goal with its progress, newest first", response=GoalList)
    async def list_goals(request: Request) -> Response:
        """Each goal's plan (its steps marked solid, next or open) and progress."""
        return JSONResponse({"goals": await asyncio.to_thread(learner.goals)})

    @describe(summary="Set a goal", request=NewGoal, response=GoalOut, status=201,
              responses={400: "Bad text, date or plan", 409: "Too many goals"})
    async def create_goal(request: Request) -> Response:
        """The learner's words, an optional target day, and optionally a plan.

        The plan is in the session plans' flowchart subset, checked by the same parser."""
        body = await read_model(request, NewGoal, hint=HINT)
        plan = body.plan.model_dump() if body.plan is not None else None
        made = await asyncio.to_thread(learner.create_goal, body.text, _day(body.target), plan)
        return JSONResponse(made, status_code=201)

    @describe(summary="One goal", response=GoalOut, responses={404: "No such goal"})
    async def get_goal(request: Request) -> Response:
        """The goal, its plan and its progress now."""
        return JSONResponse(await asyncio.to_thread(learner.goal, request.path_params["goal_id"]))

    @describe(summary="Change a goal", request=GoalChange, response=GoalOut,
              responses={400: "Bad text, date or plan", 404: "No such goal"})
    async def patch_goal(request: Request) -> Response:
        """Only the fields sent change; ``"target": null`` or ``"plan": null`` clears it."""
        body = await read_model(request, GoalChange, hint=HINT)
        sent = body.model_fields_set
        if "text" in sent and body.text is None:
            raise InvalidInput('"text" cannot be cleared: say what the goal is.')
        changes: dict[str, Any] = {}
        if "text" in sent:
            changes["text"] = body.text
        if "target" in sent:
            changes["target"] = _day(body.target)
        if "plan" in sent:
            changes["plan"] = body.plan.model_dump() if body.plan is not None else None
        goal_id = request.path_params["goal_id"]
        return JSONResponse(await asyncio.to_thread(learner.update_goal, goal_id, changes))

    @describe(summary="Delete a goal", status=204, responses={404: "No such goal"})
    async def delete_goal(request: Request) -> Response:
        """Gone from the list; its sessions and the evidence they gave stay."""
        await asyncio.to_thread(learner.delete_goal, request.path_params["goal_id"])
        return Response(status_code=204)

    return [
        Route("/api/goals", list_goals, methods=["GET"], name="list_goals"),
        Route("/api/goals", create_goal, methods=["POST"], name="create_goal"),
        Route("/api/goals/{goal_id}", get_goal, methods=["GET"], name="get_goal"),
        Route("/api/goals/{goal_id}", patch_goal, methods=["PATCH"], name="patch_goal"),
        Route("/api/goals/{goal_id}", delete_goal, methods=["DELETE"], name="delete_goal"),
    ]


def _day(text: str | None) -> date | None:
    if text is None:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise InvalidInput(f'"target" {text!r} is not a day: send YYYY-MM-DD, e.g. '
                           '"2027-03-01".') from None
