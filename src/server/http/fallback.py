"""``/api`` requests no route takes: 404 for a path no route has; for a path that exists, 405
with an ``Allow`` naming the methods its routes take, and ``OPTIONS`` answered with that
``Allow`` (204). Listed last under /api, so it never shadows a route; the static UI mounted at
"/" never sees an /api path (it would answer with its own 404 or 405 and a wrong ``Allow``).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from studyhall.server.http.lazy_routes import LazyRoutes

ANY_METHOD = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT"]


def allowed_methods(routes: list[BaseRoute], path: str) -> set[str]:
    """Every method some route takes at ``path`` (HEAD comes with GET)."""
    allowed: set[str] = set()
    for route in routes:
        if isinstance(route, Mount) and path.startswith(route.path + "/") and route.path:
            allowed |= allowed_methods(route.routes, path[len(route.path):])
        elif isinstance(route, LazyRoutes) and path.startswith(route.prefixes):  # else: none
            allowed |= allowed_methods(route.routes, path)
        elif (isinstance(route, Route) and route.include_in_schema and route.methods
              and route.path_regex.match(path)):
            allowed |= route.methods
    return allowed


async def api_fallback(request: Request) -> Response:
    path = request.url.path
    allowed = allowed_methods(request.app.routes, path)
    if not allowed:
        return JSONResponse(
            {"error": "not_found", "message": f"No API route {request.method} {path}."},
            status_code=404,
        )
    allow = ", ".join(sorted(allowed | {"OPTIONS"}))
    if request.method == "OPTIONS":
        return Response(status_code=204, headers={"Allow": allow})
    return JSONResponse(
        {"error": "method_not_allowed",
         "message": f"{path} does not take {request.method}; it takes {allow}."},
        status_code=405, headers={"Allow": allow},
    )


def fallback_route() -> Route:
    """The catch-all for /api: every method, so no request falls through to the UI's mount."""
    return Route("/api/{rest:path}", api_fallback, methods=ANY_METHOD, include_in_schema=False)
