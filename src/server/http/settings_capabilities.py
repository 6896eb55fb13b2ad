"""What each configured model can do, for Settings (issue 31).

``GET /api/settings/capabilities`` → ``{"servers": [{"model", "api_base", "roles", "tools",
"json_schema", "context_tokens", "note"}]}``, one row per configured model and server, from
what is cached or the server's own description (no model call). ``POST
/api/settings/capabilities`` asks every server again, with one tiny test call where the server
does not say whether the model calls tools. ``null`` means not known.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from studyhall.core.contracts.servers import without_credentials
from studyhall.server.http.openapi import describe
from studyhall.server.runtime.role_capabilities import RoleCapabilities


def routes(capabilities: RoleCapabilities) -> list[BaseRoute]:

    async def _answer(check: bool) -> Response:
        servers = await capabilities.servers(check=check)
        for row in servers:
            if row["api_base"]:
                row["api_base"] = without_credentials(row["api_base"])
        return JSONResponse({"servers": servers})

    @describe(summary="What each configured model can do: tools, JSON schema, context")
    async def get_capabilities(request: Request) -> Response:
        """From the cache or the servers' descriptions; no model call."""
        return await _answer(check=False)

    @describe(summary="Ask every configured model server again (one tiny call where needed)")
    async def check_capabilities(request: Request) -> Response:
        """Ask again now; a model whose server does not say gets one short tool-call test."""
        return await _answer(check=True)

    return [
        Route("/api/settings/capabilities", get_capabilities, methods=["GET"],
              name="get_settings_capabilities"),
        Route("/api/settings/capabilities", check_capabilities, methods=["POST"],
              name="check_settings_capabilities"),
    ]
