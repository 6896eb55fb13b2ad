"""``GET /api/health`` (is the server up, which version) and ``GET /api/openapi.json``."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route
from studyhall.server.config import Config


def routes(config: Config) -> list[BaseRoute]:
    version = config.version

    async def health(request: Request) -> JSONResponse:
        """Liveness check: the server answers and says its version."""
        return JSONResponse({"ok": True, "version": version})

    async def openapi(request: Request) -> JSONResponse:
        """This document: every /api route, generated from the live route table."""
        # Read the table at request time so routes added by any module are always listed.
        # Imported here: /api/health answers before the app is built (server/boot.py).
        from studyhall.server.http.openapi import openapi_document

        return JSONResponse(openapi_document(request.app.routes, title="Studyhall", version=version))

    return [
        Route("/api/health", health, methods=["GET"], name="health"),
        Route("/api/openapi.json", openapi, methods=["GET"], name="openapi"),
    ]
