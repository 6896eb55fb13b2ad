"""The OpenAPI document, generated from the live route table so every /api route is in it.

Routes added by any module appear automatically. A handler may add detail with ``@describe``
(request/response pydantic models, query parameters, its success status, extra status codes,
the events of a stream — written out, or its typed event models); otherwise its docstring is used. Every operation lists every status it
can answer with: the errors any route may give (401 no token, 403 a foreign origin on a write,
404 an unknown path id, 400/413 a bad or oversized body, 500) besides its own, each with the
``{"error", "message"}`` body. Models nested in a request or response schema live under
``components/schemas``, so every ``$ref`` resolves.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel
from starlette.routing import BaseRoute, Mount, Route
from studyhall.core.contracts.stream import WireEvent
from studyhall.server.http.lazy_routes import LazyRoutes
from studyhall.server.http.stream_events import (
    ANY_EVENTS,
    Events,
    JsonSchema,
    event_schema,
    model_events,
)

F = TypeVar("F", bound=Callable[..., Any])
_PARAM = re.compile(r"{([^}:]+)(?::[^}]+)?}")
_ATTR = "__openapi__"
_REF = "#/components/schemas/{model}"
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})

ERROR_SCHEMA: JsonSchema = {
    "type": "object",
    "required": ["error", "message"],
    "properties": {
        "error": {"type": "string", "description": "what kind of failure"},
        "message": {"type": "string", "description": "what happened and what to do"},
    },
}


@dataclass(frozen=True)
class Query:
    """One query parameter of an operation."""

    name: str
    schema: JsonSchema
    required: bool = False
    description: str = ""


@dataclass(frozen=True)
class _Detail:
    summary: str | None = None
    request: type[BaseModel] | None = None
    response: type[BaseModel] | None = None
    responses: Mapping[int, str] = field(default_factory=dict)
    # Not None: the operation answers with text/event-stream (its events' models: their
    # schemas are made with the document, not at import).
    events: Events | tuple[type[WireEvent], ...] | None = None
    status: int = 200
    query: tuple[Query, ...] = ()
    media: str | None = None  # a success body that is not JSON (e.g. "text/html")


def describe(
    *,
    summary: str | None = None,
    request: type[BaseModel] | None = None,
    response: type[BaseModel] | None = None,
    responses: dict[int, str] | None = None,
    stream: bool | Events | Sequence[type[WireEvent]] = False,
    status: int = 200,
    query: Iterable[Query] = (),
    media: str | None = None,
) -> Callable[[F], F]:
    """Attach OpenAPI detail to a handler. ``stream``: it answers with ``text/event-stream``
    (given the stream's events by name, or its typed event models, each event's data is
    documented); ``status``: its success status; ``responses``: the other statuses it answers
    with, and why."""
    events: Events | tuple[type[WireEvent], ...] | None = None
    if stream is True:
        events = ANY_EVENTS
    elif isinstance(stream, dict):
        events = stream
    elif stream is not False:
        events = tuple(stream)
    detail = _Detail(summary, request, response, responses or {}, events, status, tuple(query),
                     media)

    def mark(fn: F) -> F:
        setattr(fn, _ATTR, detail)
        return fn

    return mark


def openapi_document(routes: Iterable[BaseRoute], *, title: str, version: str) -> dict[str, Any]:
    schemas: dict[str, JsonSchema] = {"Error": ERROR_SCHEMA}
    paths: dict[str, dict[str, Any]] = {}
    for path, route in _walk(routes, ""):
        if not (path == "/api" or path.startswith("/api/")):
            continue
        for method in sorted(_methods(route) - {"HEAD"}):
            handler = _handler(route.endpoint, method)
            openapi_path = _PARAM.sub(r"{\1}", path)
            paths.setdefault(openapi_path, {})[method.lower()] = _operation(
                route, handler, method, path, schemas
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
        "components": {
            "securitySchemes": {"launchToken": {"type": "http", "scheme": "bearer"}},
            "schemas": dict(sorted(schemas.items())),
        },
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
        elif isinstance(route, LazyRoutes):  # built now: the document lists every route
            yield from _walk(route.routes, prefix)


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


def _schema(model: type[BaseModel], schemas: dict[str, JsonSchema]) -> JsonSchema:
    """``model``'s schema, inline; the models nested in it go under components, where their
    ``$ref``s point (pydantic's own ``#/$defs/...`` would resolve against nothing here)."""
    schema = model.model_json_schema(ref_template=_REF)
    schemas.update(schema.pop("$defs", {}))
    return schema


def _operation(route: Route, handler: Callable[..., Any], method: str, path: str,
               schemas: dict[str, JsonSchema]) -> dict[str, Any]:
    detail: _Detail = getattr(handler, _ATTR, _Detail())
    doc = inspect.getdoc(handler) or ""
    first, _, rest = doc.partition("\n")
    op: dict[str, Any] = {
        "operationId": f"{method.lower()}_{route.name}",
        "summary": detail.summary or first.strip() or route.name,
    }
    if rest.strip():
        op["description"] = rest.strip()
    path_params = _PARAM.findall(path)
    params = [{"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
              for name in path_params]
    params += [{"name": q.name, "in": "query", "required": q.required, "schema": q.schema,
                **({"description": q.description} if q.description else {})}
               for q in detail.query]
    if params:
        op["parameters"] = params
    if detail.request is not None:
        # An empty body reads as {} (bodies.py): it may be left out when no field is required.
        needed = any(f.is_required() for f in detail.request.model_fields.values())
        op["requestBody"] = {
            "required": needed,
            "content": {"application/json": {"schema": _schema(detail.request, schemas)}},
        }
    ok: dict[str, Any] = {"description": "OK"}
    if detail.events is not None:
        events = detail.events if isinstance(detail.events, dict) else model_events(detail.events)
        ok["content"] = {"text/event-stream": {"schema": event_schema(events)}}
    elif detail.media is not None:
        ok["content"] = {detail.media: {"schema": {"type": "string"}}}
    elif detail.response is not None:
        ok["content"] = {"application/json": {"schema": _schema(detail.response, schemas)}}
    op["responses"] = {str(detail.status): ok, **_errors(method, path_params, detail)}
    return op


def _errors(method: str, path_params: list[str], detail: _Detail) -> dict[str, Any]:
    """Every error status the operation can answer with, each with the error body."""
    why: dict[int, str] = {401: "Missing or wrong launch token",
                           500: "Failed on our side; the log file has the details"}
    if method in WRITES:
        why[403] = "A request from another origin or site"
    if path_params:
        why[404] = "Nothing has that id"
    if detail.request is not None or detail.query:
        why[400] = "The request is not right (the message says what to send)"
    if detail.request is not None:
        why[413] = "The body is over the route's size limit"
    why.update(detail.responses)
    body = {"application/json": {"schema": {"$ref": _REF.format(model="Error")}}}
    return {str(status): {"description": text, "content": body}
            for status, text in sorted(why.items())}
