"""Notes import routes.

``POST /api/graph/import`` ``{"path", "mode"?, "embed"?}`` → 202 ``{"run_id", "status"}``: the
import runs in the background (or the request joins the one running); its progress is at
``GET /api/graph/import/{run_id}`` (and in the activity list ``GET /api/graph/imports``), and
``POST /api/graph/import/{run_id}/abort`` stops it between notes.
The sources themselves are listed by ``server/http/sources.py``.
"""

from __future__ import annotations

import asyncio
import os
from typing import Literal

from pydantic import Field
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from studyhall.core.errors import InvalidInput, NotFound
from studyhall.server.http.bodies import read_model
from studyhall.server.http.body_model import BodyModel
from studyhall.server.http.openapi import describe
from studyhall.server.runtime.library import Library
from studyhall.server.runtime.library.import_runs import ImportRun


class ImportRequest(BodyModel):
    # No NUL (refused with its own message below; the pattern tells the OpenAPI document).
    path: str = Field(min_length=1, max_length=4096, json_schema_extra={"pattern": "^[^\\x00]*$"})
    mode: Literal["auto", "model", "structural"] = "auto"
    embed: bool = True


class ImportStarted(BodyModel):
    run_id: str
    status: str


IMPORT_HINT = ('Send {"path": "/folder/of/notes"} (optional "mode": "auto" | "model" | '
               '"structural", "embed": true | false).')


def routes(library: Library) -> list[BaseRoute]:

    def find(request: Request) -> ImportRun:
        run = library.import_run(request.path_params["run_id"])
        if run is None:
            raise NotFound(f"There is no import run {request.path_params['run_id']!r}.")
        return run

    @describe(
        summary="Import notes (a Markdown file or an Obsidian vault folder)",
        request=ImportRequest,
        response=ImportStarted,
        status=202,
        responses={404: "Nothing is at that path",
                   409: "An import of another path is running"},
    )
    async def post_import(request: Request) -> Response:
        """Start importing notes in the background, or join the import already running.
        Works with no API key (the model-free extractor)."""
        body = await read_model(request, ImportRequest, hint=IMPORT_HINT)
        if "\x00" in body.path:
            raise InvalidInput("The path contains a NUL character.")
        path = os.path.abspath(os.path.expanduser(body.path))
        if not await asyncio.to_thread(os.path.lexists, path):  # a stalled mount: not here
            raise NotFound(f"There is nothing at {path}. Check the path and try again.")
        run = library.start_import(path, body.mode, body.embed)
        return JSONResponse({"run_id": run.id, "status": run.status}, status_code=202)

    async def get_import(request: Request) -> Response:
        """One import run: stage, progress, and its report once done."""
        return JSONResponse(find(request).to_dict())

    async def list_imports(request: Request) -> Response:
        """Import runs, newest first (the activity feed lists them)."""
        return JSONResponse([r.to_dict() for r in library.import_runs()])

    async def abort_import(request: Request) -> Response:
        """Stop an import between notes; what was merged stays, a re-import continues."""
        return JSONResponse({"aborted": library.abort_import(find(request).id)})

    return [
        Route("/api/graph/import", post_import, methods=["POST"], name="post_import"),
        Route("/api/graph/imports", list_imports, methods=["GET"], name="list_imports"),
        Route("/api/graph/import/{run_id}", get_import, methods=["GET"], name="get_import"),
        Route(
            "/api/graph/import/{run_id}/abort", abort_import, methods=["POST"], name="abort_import"
        ),
    ]
