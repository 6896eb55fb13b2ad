"""Tool calls a model printed as text instead of calling them (small local models do): found in
``<tool_call>…</tool_call>`` tags, in fenced JSON, or as a bare ``{"name": …, "arguments": …}``
object, and cut out of the text so the learner never reads them as conversation.

Linear in the text: every search is a forward ``str.find``, and the JSON decoder's total work
is capped at a few times the text's length (hostile text cannot make it try forever).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

MAX_TEXT = 200_000  # characters looked at; a longer reply is not a printed call
_DECODE_BUDGET = 4  # the decoder may read at most this many times the text's length
# A failed decode costs a scan of the text before it (the error's line and column): only
# this many are tried, so hostile text stays linear. A real reply prints a call or two.
_MAX_FAILURES = 32
_OPEN, _CLOSE, _FENCE = "<tool_call>", "</tool_call>", "```"
_CALL_KEYS = ('"name"', '"function"')
_ARGUMENT_KEYS = ("arguments", "parameters", "args", "input")


@dataclass(frozen=True)
class PrintedCall:
    name: str
    arguments: dict[str, Any] | None  # None: the arguments were not a JSON object
    raw: str  # the printed text of the call (what a model is shown back when it is wrong)


@dataclass(frozen=True)
class Printed:
    calls: tuple[PrintedCall, ...]
    text: str  # the reply with every printed call cut out


def as_call(value: Any, raw: str) -> PrintedCall | None:
    """A decoded JSON value as a call: ``{"name", "arguments"}``, OpenAI's ``{"function":
    {"name", "arguments"}}``; arguments given as a JSON string are decoded."""
    if not isinstance(value, dict):
        return None
    if isinstance(value.get("function"), dict):
        value = value["function"]
    name = value.get("name")
    if not isinstance(name, str) or not name.strip():
        return None
    args: Any = next((value[k] for k in _ARGUMENT_KEYS if k in value), {})
    if isinstance(args, str):
        try:
            args = json.loads(args) if args.strip() else {}
        except (json.JSONDecodeError, RecursionError):
            args = None
    return PrintedCall(name.strip(), args if isinstance(args, dict) else None, raw)


class _Scan:
    def __init__(self, text: str, names: frozenset[str] | None = None) -> None:
        self.text = text
        self.names = names
        self.budget = _DECODE_BUDGET * len(text) + 1000
        self._decoder = json.JSONDecoder()
        self.failures = 0
        self._next: dict[str, int] = {}
        self.fences = True  # False once no fence can close (no newline or ``` left after one)

    def next(self, marker: str, i: int) -> int:
        """Where ``marker`` next occurs at or after ``i`` (len(text) when never): each marker's
        search resumes where it stopped, so the scan stays linear."""
        if marker == _FENCE and not self.fences:
            return len(self.text)
        found = self._next.get(marker, -1)
        if found < i:
            found = self.text.find(marker, i)
            found = len(self.text) if found < 0 else found
            self._next[marker] = found
        return found

    def decode(self, start: int) -> tuple[Any, int] | None:
        """The JSON value at ``start`` and where it ends; None when there is none (or the
        budget is spent)."""
        if self.budget <= 0 or self.failures >= _MAX_FAILURES:
            return None
        try:
            value, end = self._decoder.raw_decode(self.text, start)
        except (json.JSONDecodeError, RecursionError) as e:
            self.failures += 1
            self.budget -= max(1, getattr(e, "pos", start) - start)
            return None
        self.budget -= end - start
        return value, end


def find_printed_calls(text: str, names: frozenset[str] | None = None) -> Printed:
    """Every call printed in ``text`` and the text without them. With ``names``, a fenced or
    bare object counts only when it names one of them (a JSON example in a lesson is no call);
    a ``<tool_call>`` tag always does."""
    if len(text) > MAX_TEXT or not any(m in text for m in (_OPEN, _FENCE, *_CALL_KEYS)):
        return Printed((), text)
    scan = _Scan(text, names)
    calls: list[PrintedCall] = []
    kept: list[str] = []
    i = 0
    while i < len(text):
        found = _next_call(scan, i)
        if found is None:
            kept.append(text[i:])
            break
        start, end, call = found
        kept.append(text[i:start])
        calls.append(call)
        i = end
    rest = "".join(kept) if calls else text
    return Printed(tuple(calls), _tidy(rest) if calls else rest)


def _next_call(scan: _Scan, i: int) -> tuple[int, int, PrintedCall] | None:
    """The first printed call at or after ``i``: (start, end, call)."""
    text = scan.text
    while i < len(text):
        at = min(scan.next(_OPEN, i), scan.next(_FENCE, i), scan.next("{", i))
        if at >= len(text):
            return None
        if text.startswith(_OPEN, at):
            hit = _tagged(scan, at)
        elif text.startswith(_FENCE, at):
            hit = _fenced(scan, at)
        else:
            hit = _bare(scan, at)
        if hit is not None:
            return hit
        i = at + 1
    return None


def _tagged(scan: _Scan, at: int) -> tuple[int, int, PrintedCall] | None:
    text = scan.text
    body = at + len(_OPEN)
    close = text.find(_CLOSE, body)
    end = len(text) if close < 0 else close + len(_CLOSE)
    inner = text[body: close if close >= 0 else len(text)]
    value = _first_object(scan, body, body + len(inner))
    call = as_call(value, inner.strip()) if value is not None else None
    if call is None:  # a tag whose body is no call: still never shown as conversation
        call = PrintedCall("", None, inner.strip())
    return at, end, call


def _fenced(scan: _Scan, at: int) -> tuple[int, int, PrintedCall] | None:
    text = scan.text
    line_end = scan.next("\n", at)
    if line_end >= len(text):
        scan.fences = False
        return None
    lang = text[at + len(_FENCE): line_end].strip().lower()
    if lang not in ("", "json", "tool_call", "tool_code"):
        return None
    close = text.find(_FENCE, line_end + 1)
    if close < 0:
        scan.fences = False
        return None
    value = _first_object(scan, line_end + 1, close)
    call = as_call(value, text[line_end + 1: close].strip()) if value is not None else None
    return (at, close + len(_FENCE), call) if call is not None and _named(scan, call) else None


def _bare(scan: _Scan, at: int) -> tuple[int, int, PrintedCall] | None:
    text = scan.text
    k = at + 1
    while k < len(text) and text[k] in " \t\r\n":
        k += 1
    if not text.startswith(_CALL_KEYS, k):
        return None
    decoded = scan.decode(at)
    if decoded is None:
        return None
    value, end = decoded
    call = as_call(value, text[at:end])
    return (at, end, call) if call is not None and _named(scan, call) else None


def _named(scan: _Scan, call: PrintedCall) -> bool:
    return scan.names is None or call.name in scan.names


def _first_object(scan: _Scan, start: int, stop: int) -> Any:
    k = scan.text.find("{", start, stop)
    if k < 0:
        return None
    decoded = scan.decode(k)
    return decoded[0] if decoded is not None and decoded[1] <= stop else None


def _tidy(text: str) -> str:
    lines = [line.rstrip() for line in text.strip().splitlines()]
    out: list[str] = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    return "\n".join(out).strip()


HOLD_CHARS = 64  # held text this long that may start a printed call is held to the reply's end


class HeldText:
    """A streamed reply, shown as it comes except from where a printed call may begin."""

    def __init__(self) -> None:
        self._held: list[str] = []
        self._holding = False  # a call's start for sure: everything after waits for the end

    @property
    def text(self) -> str:
        return "".join(self._held)

    def feed(self, piece: str) -> str:
        """The part of what arrived so far that may be shown now."""
        if self._holding:
            self._held.append(piece)
            return ""
        pending = self.text + piece
        cut = hold_point(pending)
        self._held = [pending[cut:]] if cut < len(pending) else []
        # Held this long, it is a call's start, not a marker cut by a piece's end.
        self._holding = len(pending) - cut >= HOLD_CHARS
        return pending[:cut]


def hold_point(text: str) -> int:
    """Where text that may be starting a printed call begins (``len(text)`` when none): a
    streaming reader shows the text before it and holds the rest until the reply is whole.
    A fence of another language (```python) is no call and is not held."""
    best = len(text)
    at = text.find(_OPEN)
    if at >= 0:
        best = at
    best = min(best, _cut_marker(text, _OPEN))
    at = text.find(_FENCE)
    while 0 <= at < best:
        line_end = text.find("\n", at)
        lang = text[at + len(_FENCE): line_end].strip().lower() if line_end >= 0 else None
        if lang is None or lang in ("", "json", "tool_call", "tool_code"):
            best = at
            break
        close = text.find(_FENCE, line_end)
        if close < 0:
            break  # inside a code block: its braces are code
        at = text.find(_FENCE, close + len(_FENCE))
    best = min(best, _cut_marker(text, _FENCE))
    at = text.find("{")
    while 0 <= at < best:
        k = at + 1
        while k < len(text) and text[k] in " \t\r\n":
            k += 1
        if k == len(text) or any(text.startswith(key, k) or
                                 (len(text) - k < len(key) and key.startswith(text[k:]))
                                 for key in _CALL_KEYS):
            best = at
            break
        at = text.find("{", at + 1)
    return best


def _cut_marker(text: str, marker: str) -> int:
    """Where a ``marker`` cut by the end of ``text`` begins (``<tool_c``), else len(text)."""
    for n in range(min(len(marker) - 1, len(text)), 0, -1):
        if text.endswith(marker[:n]):
            return len(text) - n
    return len(text)
