"""Learner-model routes: the review queue, grading, a node's mastery explained, and statistics.

``GET /api/review?limit=N`` → ``{"due": [{"node_id", "prompt", "kind", "state",
"retrievability", "due_at", "answer", "text", …}], "counts": {"due_today", "new_today",
"overdue"}}``; ``POST /api/review/{node_id}`` ``{"grade": "again"|"hard"|"good"|"easy"}`` →
``{"node_id", "grade_id", "due_at", "stability", "difficulty", "mastery", "state", …}``;
``DELETE /api/grades/{grade_id}`` takes that grade back (undo) → the card without it;
``PUT /api/cards/{node_id}`` ``{"suspended": bool}`` takes a card out of review or puts it back;
``GET /api/mastery/{node_id}`` → ``{"mastery", "state", "explanation": [{"at", "kind",
"detail", "before", "after"}], …}``; ``GET /api/stats`` → plot data. All derived from the
evidence at each read (nothing but the grade, or its undo, is written).
"""

from __future__ import annotations

import asyncio
from typing import Any, Literal

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from studyhall.core.contracts.learner import PromptKind
from studyhall.server.http.bodies import read_model
from studyhall.server.http.body_model import BodyModel
from studyhall.server.http.numbers import whole_number
from studyhall.server.http.openapi import Query, describe
from studyhall.server.http.query import query
from studyhall.server.runtime.learner import MAX_QUEUE, Learner

GradeName = Literal["again", "hard", "good", "easy"]


class GradeIn(BodyModel):
    grade: GradeName
    kind: PromptKind | None = None  # the prompt shown, kept with the grade


class DueCard(BodyModel):
    node_id: str
    prompt: str
    kind: Literal["cloze", "recall", "question", "flashcard"]
    state: str
    retrievability: float | None
    due_at: str
    answer: str
    text: str
    topic: str | None = None  # the note a topic's card asks about (None: a session's idea)
    evidence: str | None
    queue: Literal["new", "review", "learning"]
    card: Literal["new", "learning", "review", "relearning"]
    overdue: bool
    mastery: float | None
    next: dict[GradeName, str]  # the due date each grade would give, graded now
    # ?node= only: the card's FSRS state, read-only (none before its first grade)
    stability: float | None = None
    difficulty: float | None = None
    reviews: int | None = None


class DueCounts(BodyModel):
    due_today: int
    new_today: int
    overdue: int


class SuspendedCard(BodyModel):
    node_id: str
    text: str


class ReviewQueue(BodyModel):
    due: list[DueCard]
    counts: DueCounts
    next_due_at: str | None  # the first card after today's queue (None: no other card)
    suspended: list[SuspendedCard]  # cards the learner took out of review, by their text


class CardOut(BodyModel):
    node_id: str
    grade_id: str | None = None  # after a grade: what DELETE /api/grades/{id} takes back
    due_at: str
    stability: float | None
    difficulty: float | None
    mastery: float | None
    state: str
    card: str
    reviews: int
    retrievability: float | None


class SuspendIn(BodyModel):
    suspended: bool  # true: out of review; false: back in


class SuspendOut(BodyModel):
    node_id: str
    suspended: bool


class ExplanationStep(BodyModel):
    at: str
    kind: str
    detail: str
    before: float
    after: float


class AssertionOut(BodyModel):
    id: str  # DELETE /api/graph/nodes/{node_id}/assertions/{id} takes it back
    claim: Literal["know", "dont_know", "wrong"]
    note: str
    at: str
    weight: float  # what it multiplies the odds of knowing by (1: moves nothing itself)


class MisconceptionOut(BodyModel):
    node_id: str
    chosen: str  # the wrong answer picked again and again
    right: str | None  # what it was picked for
    times: int
    first_at: str
    last_at: str
    line: str  # "You often confuse “A” and “B”: 3 times"


class MasteryOut(BodyModel):
    node_id: str
    mastery: float | None
    state: str
    due: bool
    suspended: bool  # the learner took its card out of review
    due_at: str | None
    card: str  # FSRS's phase: new, learning, review or relearning
    retrievability: float | None
    explanation: list[ExplanationStep]
    assertions: list[AssertionOut]  # what the learner said here, newest first
    misconceptions: list[MisconceptionOut]  # live patterns on this node


class StatsOut(BodyModel):
    today: str
    totals: dict[str, int]
    mastery_over_time: list[dict[str, Any]]
    reviews_due: list[dict[str, Any]]
    retention: dict[str, Any]
    topics: list[dict[str, Any]]


def _limit(raw: str | None) -> int:
    return whole_number(raw, "limit", least=1, most=MAX_QUEUE, default=20)


def routes(learner: Learner) -> list[BaseRoute]:

    @describe(summary="Today's review queue", response=ReviewQueue,
              responses={400: "limit is not a number from 1 to 1000",
                         404: "No such node (?node=)"},
              query=[Query("limit", {"type": "integer", "minimum": 1, "maximum": MAX_QUEUE}),
                     Query("node", {"type": "string"}, description="that node's card alone")])
    async def get_review(request: Request) -> Response:
        """Cards due today, in order (prerequisites first), within the daily caps, each with a
        prompt built from the node's content, the answer to reveal and the due date each grade
        would give. ``?node=ID``: that node's card alone, due or not ("Review now"), with its FSRS
        state (``stability``, ``difficulty``, ``due_at``, ``reviews``), read-only."""
        given = query(request, "limit", "node")
        node_id = given.get("node")
        if node_id:
            out = await asyncio.to_thread(learner.card, node_id)
        else:
            out = await asyncio.to_thread(learner.queue, _limit(given.get("limit")))
        learner.write_questions(out["due"])  # with a model: stored questions, for next time
        return JSONResponse(out)

    @describe(summary="Grade a review", request=GradeIn, response=CardOut,
              responses={400: "Unknown grade", 404: "No such node"})
    async def post_review(request: Request) -> Response:
        """Record the grade; the node's FSRS card (replayed from every grade) and mastery."""
        body = await read_model(request, GradeIn, refused="The grade was not recorded",
                                hint='Send {"grade": "again" | "hard" | "good" | "easy"}.')
        node_id = request.path_params["node_id"]
        return JSONResponse(await asyncio.to_thread(learner.grade, node_id, body.grade,
                                                    body.kind))

    @describe(summary="Take a review grade back (undo)", response=CardOut,
              responses={404: "No such grade, or its topic has left the graph"})
    async def delete_grade(request: Request) -> Response:
        """The card is replayed without that grade, as if it had not been given (the ledger
        keeps both records: an undo is appended). Its node's card after; taking the same grade
        back twice changes nothing."""
        grade_id = request.path_params["grade_id"]
        return JSONResponse(await asyncio.to_thread(learner.undo_grade, grade_id))

    @describe(summary="Take a node's card out of review, or put it back", request=SuspendIn,
              response=SuspendOut, responses={400: "Not a suspended flag", 404: "No such node"})
    async def put_card(request: Request) -> Response:
        """A card the learner does not want to review (a poor prompt, or not worth the time)
        leaves the queue and the forecast; its grades and mastery stay, and ``false`` puts it
        back as it was."""
        body = await read_model(request, SuspendIn, refused="The card was not changed",
                                hint='Send {"suspended": true} or {"suspended": false}.')
        node_id = request.path_params["node_id"]
        return JSONResponse(await asyncio.to_thread(learner.suspend_card, node_id,
                                                    body.suspended))

    @describe(summary="A node's mastery, explained", response=MasteryOut,
              responses={404: "No such node"})
    async def get_mastery(request: Request) -> Response:
        """The score, its state, and every event that produced it, newest first, with the score
        before and after it."""
        node_id = request.path_params["node_id"]
        return JSONResponse(await asyncio.to_thread(learner.mastery, node_id))

    @describe(summary="Learning statistics (plot data)", response=StatsOut)
    async def get_stats(request: Request) -> Response:
        """Mastery over the last 30 days, reviews due per day for the next 30 days (with the
        caps applied), retention achieved against the target, mastery per topic."""
        return JSONResponse(await asyncio.to_thread(learner.stats))

    return [
        Route("/api/review", get_review, methods=["GET"], name="get_review"),
        Route("/api/grades/{grade_id}", delete_grade, methods=["DELETE"],
              name="delete_grade"),
        Route("/api/cards/{node_id:path}", put_card, methods=["PUT"], name="put_card"),
        Route("/api/review/{node_id:path}", post_review, methods=["POST"], name="post_review"),
        Route("/api/mastery/{node_id:path}", get_mastery, methods=["GET"], name="get_mastery"),
        Route("/api/stats", get_stats, methods=["GET"], name="get_stats"),
    ]
