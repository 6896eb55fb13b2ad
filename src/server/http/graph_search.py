"""Home-graph routes beside the derived read: semantic search, and dragged positions.

``GET /api/graph/search?q=...&limit=20`` → ``{"query", "semantic", "results": [{"id", "text",
"score", "match"}]}``: cosine similarity over node vectors, fused with literal text matches,
and text matching alone when there are no vectors. ``PUT /api/graph/positions``
``{"positions": {node_id: {"x", "y"}}}`` stores positions the learner dragged — only known
nodes, finite numbers within bounds — and places any node that has none yet (the layout's
warm start keeps everything else where it is). It is the one sanctioned graph-adjacent write.
"""

from __future__ import annotations

import logging
import math

from pydantic import Field
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from studyhall.core.contracts.graph import Position
from studyhall.core.contracts.text_patterns import NOT_BLANK
from studyhall.core.errors import InvalidInput
from studyhall.server.http.bodies import read_json
from studyhall.server.http.body_model import BodyModel
from studyhall.server.http.numbers import whole_number
from studyhall.server.http.openapi import Query, describe
from studyhall.server.http.query import query
from studyhall.server.runtime.library import Library

log = logging.getLogger("studyhall.http")

MAX_QUERY = 500
MAX_LIMIT = 100
COORDINATE_LIMIT = 1e6
MAX_BODY = 8 * 1024 * 1024  # every node of a large graph dragged at once


def _limit(raw: str | None) -> int:
    return whole_number(raw, "limit", least=1, most=MAX_LIMIT, default=20)


class XY(BodyModel):
    x: float = Field(ge=-COORDINATE_LIMIT, le=COORDINATE_LIMIT, allow_inf_nan=False)
    y: float = Field(ge=-COORDINATE_LIMIT, le=COORDINATE_LIMIT, allow_inf_nan=False)


class PositionsIn(BodyModel):
    """The body ``sanitize_positions`` takes, for the OpenAPI document."""

    positions: dict[str, XY]


def sanitize_positions(body: object) -> dict[str, Position]:
    """The dragged positions; anything malformed is refused as a whole (the library keeps
    only those of nodes that exist)."""
    if not isinstance(body, dict) or not isinstance(body.get("positions"), dict):
        raise InvalidInput('Send {"positions": {"<node id>": {"x": 1.5, "y": -2}}}.')
    out: dict[str, Position] = {}
    for node_id, value in body["positions"].items():
        if not isinstance(value, dict):
            raise InvalidInput(f"The position of {node_id!r} must be an object with x and y.")
        x, y = value.get("x"), value.get("y")
        ok = all(
            isinstance(v, (int, float))
            and not isinstance(v, bool)
            and math.isfinite(v)
            and abs(v) <= COORDINATE_LIMIT
            for v in (x, y)
        )
        if not ok:
            raise InvalidInput(
                f"The position of {node_id!r} needs finite numbers x and y within "
                f"±{COORDINATE_LIMIT:g}."
            )
        out[node_id] = Position(x=float(x), y=float(y))  # type: ignore[arg-type]
    return out


def routes(library: Library) -> list[BaseRoute]:

    @describe(summary="Find propositions by meaning (and by their words)", query=[
        Query("q", {"type": "string", **NOT_BLANK, "maxLength": MAX_QUERY}, required=True,
              description=f"what to look for; at most {MAX_QUERY} characters once spaces "
              "are collapsed"),
        Query("limit", {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT}),
    ])
    async def search(request: Request) -> Response:
        """Find propositions by meaning (and by their words)."""
        given = query(request, "q", "limit")
        text = " ".join((given.get("q") or "").split())
        if not text:
            raise InvalidInput('Add the text to search for, e.g. "?q=cell respiration".')
        if len(text) > MAX_QUERY:
            raise InvalidInput(f"Keep the search under {MAX_QUERY} characters.")
        limit = _limit(given.get("limit"))
        return JSONResponse(await library.search_graph(text, limit))

    @describe(summary="Store the positions the learner dragged", request=PositionsIn,
              responses={400: "Not positions, or a coordinate not finite or out of range",
                         413: f"Over {MAX_BODY:,} bytes"})
    async def put_positions(request: Request) -> Response:
        """Store node positions the learner dragged (sanitized)."""
        body = await read_json(request, limit=MAX_BODY)
        return JSONResponse(await library.keep_positions(sanitize_positions(body)))

    return [
        Route("/api/graph/search", search, methods=["GET"], name="search_graph"),
        Route("/api/graph/positions", put_positions, methods=["PUT"], name="put_positions"),
    ]
