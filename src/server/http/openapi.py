"""The OpenAPI document, generated from the live route table so every /api route is in it.

Routes added by any module appear automatically. A handler may add detail with ``@describe``
(request/response pydantic models, extra status codes); otherwise its docstring is used.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from pydantic import BaseModel
from starlette.routing import BaseRoute, Mount, Route

F = TypeVar("F", bound=Callable[..., Any])
_PARAM = re.compile(r"{([^}:]+)(?::[^}]+)?}")
_ATTR = "__openapi__"


def describe(
    *,
    summary: str | None = None,
    request: type[BaseModel] | None = None,
    response: type[BaseModel] | None = None,
    responses: dict[int, str] | None = None,
    stream: bool = False,
) -> Callable[[F], F]:
    """Attach OpenAPI detail to a handler (``stream=True``: answers with ``text/event-stream``)."""

    def mark(fn: F) -> F:
        setattr(
            fn,
            _ATTR,
            {"summary": summary, "request": request, "response": response,
             "responses": responses or {}, "stream": stream},
        )
        return fn

    return mark


def openapi_document(routes: Iterable[BaseRoute], *, title: str, version: str) -> dict[str, Any]:
    paths: dict[str, dict[str, Any]] = {}
    for path, route in _walk(routes, ""):
        if not (path == "/api" or path.startswith("/api/")):
            continue
        for method in sorted(_methods(route) - {"HEAD"}):
            handler = _handler(route.endpoint, method)
            openapi_path = _PARAM.sub(r"{\1}", path)
            paths.setdefault(openapi_path, {})[method.lower()] = _operation(
                route, handler, method, path
            )
    return {
        "openapi": "3.1.0",
        "info": {
            "title": title,
            "version": version,
            "description": "Local API of the Studyhall desktop app. Every /api request needs the "
            "per-launch token (Authorization: Bearer <token>, from server.json).",
        },
        "servers": [{"url": "/"}],
        "components": {"securitySchemes": {"launchToken": {"type": "http", "scheme": "bearer"}}},
        "security": [{"launchToken": []}],
        "paths": dict(sorted(paths.items())),
    }


def _walk(routes: Iterable[BaseRoute], prefix: str) -> Iterator[tuple[str, Route]]:
    for route in routes:
        if isinstance(route, Route):
            if not route.include_in_schema:
                continue
            yield prefix + route.path, route
        elif isinstance(route, Mount):
            yield from _walk(route.routes, prefix + route.path)


def _methods(route: Route) -> set[str]:
    if route.methods:
        return set(route.methods)
    if inspect.isclass(route.endpoint):  # HTTPEndpoint: the verbs it defines
        verbs = ("get", "post", "put", "patch", "delete")
        return {v.upper() for v in verbs if callable(getattr(route.endpoint, v, None))}
    return {"GET"}


def _handler(endpoint: Callable[..., Any], method: str) -> Callable[..., Any]:
    if inspect.isclass(endpoint):  # HTTPEndpoint: one method per verb
        return getattr(endpoint, method.lower(), endpoint)
    return endpoint


def _operation(route: Route, handler: Callable[..., Any], method: str, path: str) -> dict[str, Any]:
    info: dict[str, Any] = getattr(handler, _ATTR, {})
    doc = inspect.getdoc(handler) or ""
    first, _, rest = doc.partition("\n")
    op: dict[str, Any] = {
        "operationId": f"{method.lower()}_{route.name}",
        "summary": info.get("summary") or first.strip() or route.name,
    }
    if rest.strip():
        op["description"] = rest.strip()
    params = [
        {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
        for name in _PARAM.findall(path)
    ]
    if params:
        op["parameters"] = params
    if info.get("request") is not None:
        op["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": info["request"].model_json_schema()}},
        }
    ok: dict[str, Any] = {"description": "OK"}
    if info.get("stream"):
        ok["content"] = {"text/event-stream": {"schema": {"type": "string"}}}
    elif info.get("response") is not None:
        ok["content"] = {"application/json": {"schema": info["response"].model_json_schema()}}
    responses: dict[str, Any] = {"200": ok, "401": {"description": "Missing or wrong token"}}
    for status, text in (info.get("responses") or {}).items():
        responses[str(status)] = {"description": text}
    op["responses"] = responses
    return op
