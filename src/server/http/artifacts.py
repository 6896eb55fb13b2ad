"""Artifact routes: make study artifacts from any scope, list, open and delete the kept ones.

``POST /api/artifacts`` ``{"kinds", "scope", "brief"?, "count"?}`` → 202 ``{"jobs": [{"job_id",
"kind"}]}`` (one background job per kind, in parallel; progress, cost and Stop are the activity
feed's); ``GET /api/artifacts`` → ``{"artifacts": [...]}`` newest first (session artifacts
included); ``GET /api/artifacts/{id}`` → the item with ``content`` and ``markdown``;
``DELETE /api/artifacts/{id}`` → 204 (its flashcards leave the review queue).
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Literal

from pydantic import Field
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from studyhall.core.contracts.artifacts import MAX_SELECTION
from studyhall.server.http.bodies import read_model
from studyhall.server.http.body_model import BodyModel
from studyhall.server.http.openapi import describe
from studyhall.server.runtime.workbench import Workbench
from studyhall.server.runtime.workbench.artifacts import ARTIFACT_KINDS, MAX_CARDS, MIN_CARDS

Kind = Literal[ARTIFACT_KINDS]  # type: ignore[valid-type]  # the workbench's kinds, as an enum


class GraphScopeIn(BodyModel):
    """The whole graph (its most central ideas)."""

    type: Literal["graph"]


class ItemScopeIn(BodyModel):
    """One source, session, topic node or cluster, by id."""

    type: Literal["source", "session", "topic", "cluster"]
    id: str = Field(min_length=1, max_length=256)


class SelectionScopeIn(BodyModel):
    """Ideas selected on the map."""

    type: Literal["selection"]
    node_ids: list[Annotated[str, Field(min_length=1, max_length=256)]] = Field(
        min_length=1, max_length=MAX_SELECTION)


ScopeIn = Annotated[GraphScopeIn | ItemScopeIn | SelectionScopeIn, Field(discriminator="type")]


class MakeRequest(BodyModel):
    kinds: list[Kind] = Field(min_length=1, max_length=10)
    scope: ScopeIn
    brief: str | None = Field(default=None, max_length=2000)
    count: int | None = Field(default=None, ge=MIN_CARDS, le=MAX_CARDS)  # flashcards


class StartedJob(BodyModel):
    job_id: str
    kind: str


class MakeResult(BodyModel):
    jobs: list[StartedJob]


class ArtifactItem(BodyModel):
    id: str
    kind: str
    title: str
    scope: dict[str, object]
    created_at: str
    job_id: str
    chat_id: str | None
    counts: dict[str, int]


class ArtifactList(BodyModel):
    artifacts: list[ArtifactItem]


class ArtifactFull(ArtifactItem):
    content: dict[str, object]
    markdown: str


def routes(workbench: Workbench) -> list[BaseRoute]:

    @describe(summary="Make study artifacts from a scope (background jobs)", request=MakeRequest,
              response=MakeResult, status=202,
              responses={400: "Bad body, kind or scope", 404: "The scope names nothing known",
                         409: "No model can write them", 422: "The scope has nothing in it"})
    async def make(request: Request) -> Response:
        """One job per kind, run in parallel; each shows in ``GET /api/activity`` (tokens, cost)
        and stops with ``POST /api/activity/abort``. Kept when it finishes:
        ``GET /api/artifacts``."""
        body = await read_model(
            request, MakeRequest,
            hint='Send {"kinds": ["notes", ...], "scope": {"type": "source", "id": "..."}}.')
        jobs = await workbench.make_artifacts(body.kinds, body.scope.model_dump(), body.brief,
                                              body.count)
        return JSONResponse({"jobs": [{"job_id": j.id, "kind": j.kind} for j in jobs]},
                            status_code=202)

    @describe(summary="Every kept artifact, newest first", response=ArtifactList)
    async def list_artifacts(request: Request) -> Response:
        """Made from a scope or written in a session; deleted ones are gone."""
        return JSONResponse({"artifacts": await asyncio.to_thread(workbench.artifacts)})

    @describe(summary="One artifact with its content and Markdown", response=ArtifactFull,
              responses={404: "No such artifact"})
    async def get_artifact(request: Request) -> Response:
        """``content``: the kind's JSON; ``markdown``: the same as Markdown (copy, print)."""
        artifact_id = request.path_params["artifact_id"]
        return JSONResponse(await asyncio.to_thread(workbench.artifact, artifact_id))

    @describe(summary="Delete an artifact", status=204, responses={404: "No such artifact"})
    async def delete_artifact(request: Request) -> Response:
        """Gone from the list; its flashcards leave the review queue (grades stay evidence)."""
        await workbench.delete_artifact(request.path_params["artifact_id"])
        return Response(status_code=204)

    return [
        Route("/api/artifacts", make, methods=["POST"], name="make_artifacts"),
        Route("/api/artifacts", list_artifacts, methods=["GET"], name="list_artifacts"),
        Route("/api/artifacts/{artifact_id}", get_artifact, methods=["GET"], name="get_artifact"),
        Route("/api/artifacts/{artifact_id}", delete_artifact, methods=["DELETE"],
              name="delete_artifact"),
    ]
