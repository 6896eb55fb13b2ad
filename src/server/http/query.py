"""Query strings read one way: a parameter the route does not take, or one given twice, is
refused (400) like any other malformed request, so what the OpenAPI document lists for a route
is all it takes."""

from __future__ import annotations

from starlette.requests import Request
from studyhall.core.errors import InvalidInput


def query(request: Request, *names: str) -> dict[str, str]:
    """The route's query parameters (``names``) that were given, each once."""
    params = request.query_params
    unknown = sorted(set(params) - set(names))
    if unknown:
        takes = ", ".join(f'"{n}"' for n in names) or "no parameters"
        raise InvalidInput(f"Unknown query parameter(s): {', '.join(unknown)[:200]}. This route "
                           f"takes {takes}.")
    twice = sorted(n for n in names if len(params.getlist(n)) > 1)
    if twice:
        raise InvalidInput(f'Give "{twice[0]}" once.')
    return {n: params[n] for n in names if n in params}
