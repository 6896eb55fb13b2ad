"""Structured output from a model: ask for JSON, validate it, retry once with the error shown.

A model that answers twice with something unparseable or of the wrong shape fails the call
with ``ModelOutputInvalid`` (the run then writes nothing and the next trigger re-runs). An
answer whose stream broke off is asked for again (nobody saw it), within the same attempts;
so is one cut at its token cap or ended by the repetition guard (finish reason ``length`` /
``repetition``): it is never parsed, so a cut answer is never taken as a short one. Every
schema goes out bounded (``core.agents.schema_bounds``) so a grammar cannot run a string on.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import ValidationError
from studyhall.core.agents.schema_bounds import bounded
from studyhall.core.contracts.chat import Usage, add_usage
from studyhall.core.contracts.models import ModelRequest, ProviderMessage
from studyhall.core.contracts.settings import ModelRole
from studyhall.core.errors import ModelOutputInvalid, ModelStreamCut
from studyhall.core.ports.models import ChatModel

T = TypeVar("T")
ATTEMPTS = 2
CUT_REASONS = frozenset({"length", "repetition"})  # a reply that never finished
CUT_PROBLEM = ("the answer was cut off before it ended (it ran too long); answer again, "
               "shorter: keep every text brief")
_ECHO_CHARS = 4_000  # what of a failed answer is shown back
_EXTRACTION_ROLES = frozenset({"extractor", "auditor"})  # their runs retry on the next trigger


def parse_json_text(text: str) -> Any:
    """The JSON value of a model's answer, tolerating a Markdown code fence around it."""
    body = text.strip()
    if body.startswith("```"):
        body = body.split("\n", 1)[1] if "\n" in body else ""
        body = body.rsplit("```", 1)[0]
    try:
        return json.loads(body)
    except json.JSONDecodeError as first:
        start, end = body.find("{"), body.rfind("}")
        if 0 <= start < end:
            try:
                return json.loads(body[start : end + 1])
            except json.JSONDecodeError:
                pass
        raise ValueError(f"not valid JSON ({first.msg} at line {first.lineno}, "
                         f"column {first.colno})") from first


def describe_error(error: Exception) -> str:
    if isinstance(error, ValidationError):
        parts = [f"{'.'.join(str(p) for p in e['loc']) or '(root)'}: {e['msg']}"
                 for e in error.errors()[:5]]
        more = error.error_count() - len(parts)
        return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")
    return str(error)


async def _answer(model: ChatModel, request: ModelRequest) -> tuple[str, Usage | None, str]:
    text: list[str] = []
    usage: Usage | None = None
    fallback = ""
    reason = "stop"
    async for event in model.stream(request):
        if event.type == "text-delta":
            text.append(event.text)
        elif event.type == "usage":
            usage = add_usage(usage, event.usage)
        elif event.type == "tool-call" and not fallback:
            # Some providers return a structured answer as a tool call; accept its arguments.
            fallback = json.dumps(event.arguments) if event.arguments is not None else event.raw
        elif event.type == "finish":
            reason = event.reason
    return ("".join(text) or fallback), usage, reason


async def ask_structured(
    model: ChatModel,
    role: ModelRole,
    messages: list[ProviderMessage],
    schema: dict[str, Any],
    parse: Callable[[Any], T],
    *,
    attempts: int = ATTEMPTS,
) -> tuple[T, Usage | None]:
    """Call ``model`` for a JSON answer and parse it; ``attempts`` tries in all (by default one
    corrective retry), then fail."""
    conversation = list(messages)
    usage: Usage | None = None
    problem = ""
    schema = bounded(schema)
    for attempt in range(1, attempts + 1):
        request = ModelRequest(role=role, messages=tuple(conversation), response_schema=schema)
        try:
            text, call_usage, reason = await _answer(model, request)
        except ModelStreamCut:
            if attempt == attempts:
                raise
            continue
        usage = add_usage(usage, call_usage)
        if reason in CUT_REASONS:
            problem = CUT_PROBLEM
        else:
            try:
                return parse(parse_json_text(text)), usage
            except (ValueError, ValidationError) as error:
                problem = describe_error(error)
        shown = text if len(text) <= _ECHO_CHARS else text[:_ECHO_CHARS] + "…"
        conversation += [
            {"role": "assistant", "content": shown},
            {"role": "user", "content": f"That answer was not valid: {problem}. Reply again "
                                        "with only the JSON object, following the schema."},
        ]
    # Only extraction comes back by itself; the other roles' callers say what they do instead.
    then = "; extraction will retry on the next trigger" if role in _EXTRACTION_ROLES else ""
    raise ModelOutputInvalid(
        f"The {role} model answered {attempts} time{'s' if attempts != 1 else ''} without valid "
        f"structured output "
        f"({problem}). Nothing was written{then}. If it "
        f"keeps failing, choose a model that supports JSON output for '{role}' in Settings → "
        "Models.", role=role, attempts=attempts)
