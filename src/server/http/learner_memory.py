"""Correctable memory: the learner says "I know this", "I don't know this" or "this is wrong" of
a topic or idea, and can take it back.

``POST /api/graph/nodes/{node_id}/assertions`` ``{"kind": "know"|"dont_know"|"wrong", "note"?}``
→ 201, the node's mastery as ``GET /api/mastery/{id}`` shows it, with ``assertion_id``;
``DELETE /api/graph/nodes/{node_id}/assertions/{assertion_id}`` → 200, the mastery after the
undo (a retraction is appended: ledgers are append-only; undoing twice adds nothing);
``GET …/assertions`` → ``{"node_id", "assertions"}`` (the live ones, newest first) and
``GET …/assertions/{assertion_id}`` → that one, with ``retracted_at`` (null while it counts).
All through the Learner façade; no tool a model calls reaches them. The group is listed before
the graph's, whose ``GET /api/graph/nodes/{node_id:path}`` would otherwise take these paths.
"""

from __future__ import annotations

import asyncio
from typing import Literal

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from studyhall.core.contracts.learner import ASSERTION_NOTE_CHARS
from studyhall.server.http.bodies import read_model
from studyhall.server.http.body_model import BodyModel
from studyhall.server.http.openapi import describe
from studyhall.server.http.review import AssertionOut, MasteryOut
from studyhall.server.runtime.learner import Learner

NOTE_BYTES = 16 * 1024  # a note is at most 500 characters; a bigger body is not one


class AssertionIn(BodyModel):
    kind: Literal["know", "dont_know", "wrong"]
    note: str = ""  # plain text, at most 500 characters once white space is folded


class AssertedOut(MasteryOut):
    assertion_id: str


class AssertionsOut(BodyModel):
    node_id: str
    assertions: list[AssertionOut]


class OneAssertionOut(AssertionOut):
    retracted_at: str | None  # when it was taken back (null: it counts)


def routes(learner: Learner) -> list[BaseRoute]:

    @describe(summary="Say what you know of a topic", request=AssertionIn,
              response=AssertedOut, status=201,
              responses={400: f"Unknown kind, or a note over {ASSERTION_NOTE_CHARS} characters",
                         404: "No such node", 413: "The body is too large"})
    async def post_assertion(request: Request) -> Response:
        """Append the learner's own word on the node ("I know this", "I don't know this",
        "this is wrong", with an optional note); its mastery after it, the assertion in its
        explanation with its weight."""
        body = await read_model(request, AssertionIn, limit=NOTE_BYTES,
                                refused="Nothing was recorded",
                                hint='Send {"kind": "know" | "dont_know" | "wrong", '
                                     '"note"?: "…"}.')
        node_id = request.path_params["node_id"]
        out = await asyncio.to_thread(learner.assert_about, node_id, body.kind, body.note)
        return JSONResponse(out, status_code=201)

    @describe(summary="Take back what you said of a topic", response=MasteryOut,
              responses={404: "No such node, or no such assertion on it"})
    async def delete_assertion(request: Request) -> Response:
        """Undo: a retraction is appended and the assertion counts for nothing from then on;
        the node's mastery after it."""
        params = request.path_params
        return JSONResponse(await asyncio.to_thread(learner.take_back, params["node_id"],
                                                    params["assertion_id"]))

    @describe(summary="What you said of a topic", response=AssertionsOut,
              responses={404: "No such node"})
    async def list_assertions(request: Request) -> Response:
        """The assertions on the node that still count, newest first."""
        return JSONResponse(await asyncio.to_thread(learner.assertions,
                                                    request.path_params["node_id"]))

    @describe(summary="One thing you said of a topic", response=OneAssertionOut,
              responses={404: "No such node, or no such assertion on it"})
    async def get_assertion(request: Request) -> Response:
        """The assertion, and when it was taken back (null while it counts)."""
        params = request.path_params
        return JSONResponse(await asyncio.to_thread(learner.assertion, params["node_id"],
                                                    params["assertion_id"]))

    return [
        Route("/api/graph/nodes/{node_id:path}/assertions/{assertion_id}", get_assertion,
              methods=["GET"], name="get_assertion"),
        Route("/api/graph/nodes/{node_id:path}/assertions/{assertion_id}", delete_assertion,
              methods=["DELETE"], name="delete_assertion"),
        Route("/api/graph/nodes/{node_id:path}/assertions", list_assertions, methods=["GET"],
              name="list_assertions"),
        Route("/api/graph/nodes/{node_id:path}/assertions", post_assertion, methods=["POST"],
              name="post_assertion"),
    ]
