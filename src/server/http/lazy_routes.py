"""Route groups built on first need, so start-up imports only what ``/api/health`` needs.

``LazyRoutes(prefixes, build)`` stands in the route table where a group's routes would be.
``build()`` runs once — importing the group's module with its contracts and runtime — on the
first request under one of ``prefixes``, or on the first walk of the whole table (the OpenAPI
document, a 405's ``Allow``). Matching is then delegated in order, exactly as if the group's
routes were listed in place. A route outside its group's prefixes could never be reached, so
building checks every path against them and fails loudly.

``lazy_modules`` returns modules that load on first attribute access (the standard library's
``importlib.util.LazyLoader``), so the route table in ``server/app.py`` calls them typed.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
from collections.abc import Callable
from types import ModuleType
from typing import Any

from starlette.routing import BaseRoute, Match, NoMatchFound
from starlette.types import Receive, Scope, Send

# One lock for every group: builds never overlap, so no lazy module is loaded by two threads at
# once (Python 3.11's LazyLoader does not guard against that itself).
_BUILDING = threading.RLock()


class RouteOutsideGroup(Exception):
    """A group built a route its prefixes do not cover: no request would ever reach it."""


class LazyRoutes(BaseRoute):
    def __init__(self, prefixes: tuple[str, ...], build: Callable[[], list[BaseRoute]]) -> None:
        if not prefixes or not all(p.startswith("/") for p in prefixes):
            raise ValueError(f"route group prefixes must be absolute paths, not {prefixes!r}")
        self.prefixes = prefixes
        self._build = build
        self._routes: list[BaseRoute] | None = None

    def __repr__(self) -> str:
        state = "built" if self._routes is not None else "not built yet"
        return f"LazyRoutes({self.prefixes!r}, {state})"

    @property
    def built(self) -> bool:
        return self._routes is not None

    @property
    def routes(self) -> list[BaseRoute]:
        """The group's routes, built now if they are not yet."""
        if self._routes is None:
            with _BUILDING:
                if self._routes is None:
                    routes = self._build()
                    self._check(routes)
                    self._routes = routes
        return self._routes

    def _check(self, routes: list[BaseRoute]) -> None:
        for route in routes:
            path = getattr(route, "path", None)
            if not isinstance(path, str) or not path.startswith(self.prefixes):
                raise RouteOutsideGroup(
                    f"The route {path!r} is outside its group's prefixes {self.prefixes!r}: "
                    "add its prefix where the group is listed (server/app.py)."
                )

    def _under_prefixes(self, scope: Scope) -> bool:
        return scope["type"] in ("http", "websocket") and str(scope["path"]).startswith(
            self.prefixes)

    def _match(self, scope: Scope) -> tuple[Match, Scope, BaseRoute | None]:
        partial: tuple[Scope, BaseRoute] | None = None
        for route in self.routes:
            match, child_scope = route.matches(scope)
            if match is Match.FULL:
                return match, child_scope, route
            if match is Match.PARTIAL and partial is None:
                partial = (child_scope, route)
        if partial is not None:
            return Match.PARTIAL, partial[0], partial[1]
        return Match.NONE, {}, None

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if not self._under_prefixes(scope):  # nothing here for it: stay unbuilt
            return Match.NONE, {}
        match, child_scope, _ = self._match(scope)
        return match, child_scope

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        # The router took this group's match; find the same route again (a regex match).
        _, _, route = self._match(scope)
        if route is None:  # pragma: no cover - the router only hands over what matched
            raise RuntimeError(f"no route of {self!r} matches {scope['path']!r}")
        await route.handle(scope, receive, send)

    def url_path_for(self, name: str, /, **path_params: Any) -> Any:
        for route in self.routes:
            try:
                return route.url_path_for(name, **path_params)
            except NoMatchFound:
                pass
        raise NoMatchFound(name, path_params)


def lazy_modules(package: str, *names: str) -> tuple[ModuleType, ...]:
    """``package.name`` for each name, loaded on its first attribute access (one already
    imported is returned as it is)."""
    return tuple(_lazy_module(f"{package}.{name}") for name in names)


def _lazy_module(name: str) -> ModuleType:
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    parent, _, child = name.rpartition(".")
    setattr(sys.modules[parent], child, module)  # as an import would: ``package.name`` works
    return module
