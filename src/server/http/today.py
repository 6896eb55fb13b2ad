"""``GET /api/today`` → ``{"state": "empty"|"busy"|"done", "steps": [{"kind", "title", "why",
"action": {"label", "href", "session"?}, …}], "next_review"}``: what to do now, at most five steps in order
(due reviews, the open session, learn next, a misconception, import/ask). Derived at each read
from the evidence, the sessions and the sources; nothing is written."""

from __future__ import annotations

import asyncio
from typing import Literal

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from studyhall.server.http.body_model import BodyModel
from studyhall.server.http.openapi import describe
from studyhall.server.http.query import query
from studyhall.server.http.review import MisconceptionOut
from studyhall.server.runtime.learner import Learner


class StepSession(BodyModel):
    topic: str
    node_id: str


class StepAction(BodyModel):
    label: str
    href: str  # a #/ route of the window
    session: StepSession | None = None  # with a model: the session one click starts
    goal_id: str | None = None  # goal: with a model, one click starts a session on it


class TodayStepOut(BodyModel):
    kind: Literal["review", "session", "goal", "learn", "misconception", "import", "ask"]
    title: str
    why: str
    action: StepAction
    # Each kind's own detail (absent on the others).
    count: int | None = None  # review: cards due today
    minutes: int | None = None  # review: about how long they take
    new: int | None = None
    overdue: int | None = None
    chat_id: str | None = None  # session
    step: int | None = None  # session: the plan step to continue at, from 1 (None: no plan)
    of: int | None = None  # session: the plan's steps
    goal_id: str | None = None  # goal (step, of: where it resumes)
    solid: int | None = None  # goal: its steps solid
    node_id: str | None = None  # learn, misconception
    prerequisites: list[str] | None = None  # learn: its solid prerequisites
    linked_known: int | None = None  # learn: links to topics the learner knows
    seen_at: str | None = None  # misconception: when the evidence last showed it
    pattern: MisconceptionOut | None = None  # misconception: the repeated wrong answer, if so


class TodayOut(BodyModel):
    state: Literal["empty", "busy", "done"]
    steps: list[TodayStepOut]
    next_review: str | None  # the first day after today with a card due (YYYY-MM-DD)
    goals: int  # how many goals the learner has set


def routes(learner: Learner) -> list[BaseRoute]:

    @describe(summary="What to do today", response=TodayOut,
              responses={400: "A query parameter (this route takes none)"})
    async def get_today(request: Request) -> Response:
        """At most five steps, in order: due reviews (count, minutes), the open session at its
        next plan step, the next topic whose prerequisites are solid, a misconception to
        revisit, and import/ask when nothing is there yet. Each step's ``action`` is one click:
        a ``#/`` route, and with a model the session to start (``session``)."""
        query(request)  # takes none: an unknown one is refused like elsewhere
        return JSONResponse(await asyncio.to_thread(learner.today))

    return [Route("/api/today", get_today, methods=["GET"], name="get_today")]
