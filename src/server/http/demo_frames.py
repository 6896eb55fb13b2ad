"""``GET /api/frames/demo/{job_id}``: a generated demo as its own sandboxed document.

A demo is model-written HTML with inline scripts. It cannot run as an ``iframe srcdoc`` of the
app page: a srcdoc document inherits the page's CSP, which (rightly) refuses inline script.
So the window frames this URL instead, with ``sandbox="allow-scripts"`` and no same-origin:
the response's own CSP sandboxes it again, lets its inline code run, and gives it no network
at all (no fetch, no external images, scripts, fonts or forms), and only the app may frame it.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from studyhall.server.http.openapi import describe
from studyhall.server.runtime.workbench import Workbench

DEMO_CSP = "; ".join((  # noqa: FLY002 - one directive per line
    "sandbox allow-scripts",
    "default-src 'none'",
    "script-src 'unsafe-inline'",
    "style-src 'unsafe-inline'",
    "img-src data: blob:",
    "font-src data:",
    "media-src data: blob:",
    "connect-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
    "frame-ancestors 'self'",
))


def _missing(job_id: str) -> JSONResponse:
    return JSONResponse({"error": "NotFound",
                         "message": f"No finished demo {job_id!r}. It may still be building."},
                        status_code=404)


def routes(workbench: Workbench) -> list[BaseRoute]:
    @describe(summary="A finished demo as its own sandboxed document", media="text/html",
              responses={404: "No finished demo has that id"})
    async def demo_frame(request: Request) -> Response:
        """The demo's HTML, sandboxed: inline code runs, nothing can reach the network."""
        job_id = request.path_params["job_id"]
        html = workbench.demo_html(job_id)
        if html is None:
            return _missing(job_id)
        return Response(html, media_type="text/html; charset=utf-8", headers={
            "content-security-policy": DEMO_CSP,
            # The security middleware adds DENY unless a value is set: the app frames this.
            "x-frame-options": "SAMEORIGIN",
            "cache-control": "no-store",
        })

    return [Route("/api/frames/demo/{job_id}", demo_frame, methods=["GET"], name="demo_frame")]
