"""What a scripted model server answers, one ``Reply`` per request: text, tool calls, JSON, or
a failure (an HTTP error with a reason, a stream cut mid-text or mid-tool-call, a slow first
byte). Built with the small constructors below; read by ``tests.support.model_server``."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any


@dataclass(frozen=True)
class Call:
    name: str
    arguments: dict[str, Any]
    fragments: int = 1  # how many pieces the arguments' JSON is streamed in


@dataclass(frozen=True)
class Reply:
    text: str = ""
    calls: tuple[Call, ...] = ()
    reasoning: str = ""  # hidden reasoning deltas (never shown as text)
    finish_reason: str | None = None  # None: "tool_calls" with calls, else "stop"
    status: int = 200
    reason: str = ""  # the error message of a failed request
    headers: dict[str, str] = field(default_factory=dict)
    cut_after: int | None = None  # close the stream after this many characters of text
    cut_in_call: bool = False  # close the stream halfway through the first call's arguments
    first_byte_delay: float = 0.0
    chunk_chars: int = 4  # text is streamed in pieces of this size
    usage: tuple[int, int] | None = None  # (prompt, completion); None: counted from the text

    @property
    def failed(self) -> bool:
        return self.status >= 400

    def tokens(self) -> tuple[int, int]:
        if self.usage is not None:
            return self.usage
        words = len(self.text.split()) + sum(len(json.dumps(c.arguments)) // 4 for c in self.calls)
        return 17, max(1, words)


def text(words: str, **options: Any) -> Reply:
    return Reply(text=words, **options)


def answer_json(value: Any, **options: Any) -> Reply:
    return Reply(text=json.dumps(value), **options)


def tool(name: str, arguments: dict[str, Any], *, say: str = "", fragments: int = 1,
         **options: Any) -> Reply:
    return Reply(text=say, calls=(Call(name, arguments, fragments),), **options)


def tools(*calls: Call, say: str = "", **options: Any) -> Reply:
    return Reply(text=say, calls=calls, **options)


def fail(status: int, reason: str, *, retry_after: float | None = None) -> Reply:
    headers = {"Retry-After": f"{retry_after:g}"} if retry_after is not None else {}
    return Reply(status=status, reason=reason, headers=headers)


def cut_text(words: str, after: int) -> Reply:
    """Stream ``words`` but break the connection after ``after`` characters."""
    return Reply(text=words, cut_after=after)


def cut_in_call(say: str, name: str, arguments: dict[str, Any]) -> Reply:
    """Stream ``say``, start a call, and break the connection inside its arguments."""
    return Reply(text=say, calls=(Call(name, arguments, fragments=6),), cut_in_call=True)


def slow(reply: Reply, seconds: float) -> Reply:
    """The same reply after ``seconds`` of silence before the first byte (a cold model load)."""
    return replace(reply, first_byte_delay=seconds)


def pieces(value: str, size: int) -> list[str]:
    size = max(1, size)
    return [value[i : i + size] for i in range(0, len(value), size)] or [""]


def split_in(value: str, count: int) -> list[str]:
    """``value`` in ``count`` nearly equal pieces (fewer when it is shorter)."""
    count = max(1, min(count, len(value) or 1))
    step = -(-len(value) // count)
    return pieces(value, step)
