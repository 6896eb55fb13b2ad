"""Scripted models: the ``STUDYHALL_SCRIPT`` file (DESIGN.md "Scripted models") and its cursor.

The script maps a model role to the answers that role gives, one entry per model call, in
order. How many entries each role has used lives in a cursor file in the data dir, advanced
under a file lock *before* the entry is used: a restarted server continues the script where
the last one stopped, and two processes sharing a data dir never replay an entry.

An entry reaches litellm as its offline ``mock_response`` (``mock_response_for``), so scripted
runs execute the real adapter:

- plain text (or a ``json`` answer): a string, which litellm streams in small deltas;
- tool calls: a ``litellm.ModelResponse`` whose message carries them; with ``stream=True``
  litellm streams it as chunks with ids, names and argument strings (``mock_tool_calls`` does
  not stream tool calls, so it is not used);
- errors: an instance of the litellm exception a provider would cause, which litellm raises
  from inside ``acompletion`` — so the adapter's mapping and retry code run unchanged.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from filelock import FileLock, Timeout
from studyhall.adapters.errors import store_error, translated
from studyhall.adapters.llm.error_messages import CallTarget
from studyhall.core.contracts.settings import MODEL_ROLES
from studyhall.core.errors import ModelNotConfigured, ModelScriptInvalid

# DESIGN.md's four, plus two more failures a test may want to provoke.
ERROR_KINDS = ("auth", "rate_limit", "timeout", "server", "context_too_long", "bad_request")
_ENTRY_KEYS = {"text", "tool_calls", "json", "error", "segments", "finish"}
# How a reply may end besides "stop"/"tool_calls": cut at max_tokens, as a small model's is.
FINISH_REASONS = ("length",)
_CALL_KEYS = {"name", "arguments", "id"}


@dataclass(frozen=True)
class ScriptToolCall:
    name: str
    # A dict is sent as JSON; a string is sent verbatim (so a script can send malformed JSON).
    arguments: dict[str, Any] | str
    id: str | None = None


@dataclass(frozen=True)
class ScriptEntry:
    role: str
    index: int  # position in the role's list; makes default tool-call ids deterministic
    text: str | None = None
    tool_calls: tuple[ScriptToolCall, ...] = ()
    json: Any = None
    has_json: bool = False
    error: str | None = None
    # A transcriber's timed answer: (start, end, text) per cue, seconds into the audio sent.
    segments: tuple[tuple[float, float, str], ...] = ()
    finish: str | None = None  # the finish reason to report ("length": cut at max_tokens)

    @property
    def answer_text(self) -> str | None:
        """What the model "says": the text, or the structured answer serialized as JSON."""
        if self.has_json:
            return json.dumps(self.json, ensure_ascii=False)
        return self.text

    def tool_call_id(self, k: int) -> str:
        call = self.tool_calls[k]
        return call.id or f"call_{self.role}_{self.index}_{k}"


def _parse_call(value: object, where: str, errors: list[str]) -> ScriptToolCall | None:
    if not isinstance(value, dict):
        errors.append(f"{where}: a tool call must be an object with a name and arguments")
        return None
    unknown = sorted(set(value) - _CALL_KEYS)
    if unknown:
        errors.append(f"{where}: unknown key(s) {unknown} (allowed: name, arguments, id)")
    name = value.get("name")
    if not isinstance(name, str) or not name.strip():
        errors.append(f'{where}: "name" must be a non-empty string')
        return None
    args = value.get("arguments", {})
    if not isinstance(args, (dict, str)):
        errors.append(f'{where}: "arguments" must be an object (or a raw string)')
        return None
    call_id = value.get("id")
    if call_id is not None and (not isinstance(call_id, str) or not call_id):
        errors.append(f'{where}: "id" must be a non-empty string')
        return None
    return ScriptToolCall(name=name, arguments=args, id=call_id)


def _parse_segments(role: str, index: int, value: dict[str, Any],
                    errors: list[str]) -> ScriptEntry | None:
    where = f"{role}[{index}]"
    raw = value["segments"]
    cues: list[tuple[float, float, str]] = []
    if len(value) > 1 or not isinstance(raw, list) or not raw:
        errors.append(f'{where}: "segments" stands alone and is a non-empty list')
        return None
    for k, cue in enumerate(raw):
        ok = isinstance(cue, dict) and isinstance(cue.get("text"), str) and all(
            isinstance(cue.get(t), (int, float)) for t in ("start", "end"))
        if not ok:
            errors.append(f'{where}.segments[{k}]: needs numeric "start", "end" and a "text"')
            return None
        cues.append((float(cue["start"]), float(cue["end"]), cue["text"]))
    return ScriptEntry(role=role, index=index, segments=tuple(cues))


def _parse_entry(role: str, index: int, value: object, errors: list[str]) -> ScriptEntry | None:
    where = f"{role}[{index}]"
    if not isinstance(value, dict) or not value:
        errors.append(f"{where}: an entry must be an object with text, tool_calls, json or error")
        return None
    unknown = sorted(set(value) - _ENTRY_KEYS)
    if unknown:
        errors.append(f"{where}: unknown key(s) {unknown} (allowed: text, tool_calls, json, error, segments, finish)")
        return None
    finish = value.get("finish")
    if "finish" in value:
        if finish not in FINISH_REASONS or not {"text", "tool_calls", "json"} & set(value):
            errors.append(f'{where}: "finish" is one of {list(FINISH_REASONS)}, beside a text, '
                          "tool_calls or json answer")
            return None
        value = {k: v for k, v in value.items() if k != "finish"}
    if "error" in value:
        kind = value["error"]
        if len(value) > 1 or kind not in ERROR_KINDS:
            errors.append(f'{where}: "error" stands alone and is one of {list(ERROR_KINDS)}')
            return None
        return ScriptEntry(role=role, index=index, error=kind)
    if "segments" in value:
        return _parse_segments(role, index, value, errors)
    if "json" in value:
        if len(value) > 1:
            errors.append(f'{where}: "json" stands alone (it is the whole structured answer)')
            return None
        return ScriptEntry(role=role, index=index, json=value["json"], has_json=True,
                           finish=finish)
    text = value.get("text")
    if text is not None and not isinstance(text, str):
        errors.append(f'{where}: "text" must be a string')
        return None
    raw_calls = value.get("tool_calls", [])
    if not isinstance(raw_calls, list) or ("tool_calls" in value and not raw_calls):
        errors.append(f'{where}: "tool_calls" must be a non-empty list')
        return None
    calls = [_parse_call(c, f"{where}.tool_calls[{k}]", errors) for k, c in enumerate(raw_calls)]
    if any(c is None for c in calls):
        return None
    return ScriptEntry(
        role=role, index=index, text=text, tool_calls=tuple(c for c in calls if c is not None),
        finish=finish,
    )


def parse_script(data: object, source: str) -> dict[str, tuple[ScriptEntry, ...]]:
    """Validate a whole script up front; every problem is reported at once, with its place."""
    if not isinstance(data, dict):
        raise ModelScriptInvalid(
            f"The model script {source} must be a JSON object mapping a role to a list of "
            f'answers, e.g. {{"teacher": [{{"text": "Hi"}}]}}.'
        )
    errors: list[str] = []
    script: dict[str, tuple[ScriptEntry, ...]] = {}
    for role, entries in data.items():
        if role not in MODEL_ROLES:
            errors.append(f"unknown role {role!r} (roles: {', '.join(MODEL_ROLES)})")
            continue
        if not isinstance(entries, list):
            errors.append(f"{role}: must be a list of entries")
            continue
        parsed = [_parse_entry(role, i, e, errors) for i, e in enumerate(entries)]
        script[role] = tuple(e for e in parsed if e is not None)
    if errors:
        shown = "; ".join(errors[:8]) + (f"; and {len(errors) - 8} more" if len(errors) > 8 else "")
        raise ModelScriptInvalid(f"The model script {source} is invalid: {shown}.")
    return script


class ChatScript:
    """The loaded script plus its persisted per-role cursor."""

    def __init__(
        self,
        entries: Mapping[str, tuple[ScriptEntry, ...]],
        *,
        cursor_path: Path,
        digest: str,
        source: str = "script",
    ) -> None:
        self._entries = dict(entries)
        self._cursor_path = Path(cursor_path)
        self._digest = digest
        self._source = source
        self._lock = FileLock(str(self._cursor_path) + ".lock", timeout=30)

    @classmethod
    def load(cls, path: Path, cursor_path: Path) -> ChatScript:
        path = Path(path)
        try:
            raw = path.read_bytes()
        except OSError as e:
            raise ModelScriptInvalid(
                f"Cannot read the model script {path} ({e.strerror or e}). Check STUDYHALL_SCRIPT."
            ) from e
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise ModelScriptInvalid(
                f"The model script {path} is not valid JSON ({e}). Fix the file or unset "
                f"STUDYHALL_SCRIPT."
            ) from e
        return cls.from_data(data, cursor_path, source=str(path), digest=hashlib.sha256(raw).hexdigest())

    @classmethod
    def from_data(cls, data: object, cursor_path: Path, source: str = "script",
                  digest: str | None = None) -> ChatScript:
        """A script from its decoded JSON (a file's, or a mapping a test builds), validated.
        ``digest`` names the script for its cursor: a file's bytes' hash, else a hash of the
        data's canonical JSON."""
        if digest is None:
            canonical = json.dumps(data, sort_keys=True, ensure_ascii=False).encode()
            digest = hashlib.sha256(canonical).hexdigest()
        return cls(parse_script(data, source), cursor_path=cursor_path, digest=digest, source=source)

    @property
    def roles(self) -> list[str]:
        return sorted(self._entries)

    def next(self, role: str) -> ScriptEntry:
        """Take the role's next entry, advancing the durable cursor first (one entry per call)."""
        entries = self._entries.get(role)
        if not entries:
            raise ModelNotConfigured(
                f"The model script {self._source} has no answers for the {role} role. "
                f'Add a "{role}" list to it.',
                role=role,
            )
        with self._locked(role):
            cursors = self._read_cursors()
            used = cursors.get(role, 0)
            if used >= len(entries):
                raise ModelNotConfigured(
                    f"The model script {self._source} has no answer left for the {role} role "
                    f'(all {len(entries)} used). Add entries to its "{role}" list, or delete '
                    f"{self._cursor_path} to start it over.",
                    role=role,
                )
            cursors[role] = used + 1
            self._write_cursors(cursors)
        return entries[used]

    def used(self, role: str) -> int:
        """How many of the role's entries were taken (persisted; survives a restart)."""
        with self._locked(role):
            return self._read_cursors().get(role, 0)

    @contextmanager
    def _locked(self, role: str) -> Iterator[None]:
        try:
            self._cursor_path.parent.mkdir(parents=True, exist_ok=True)
            with self._lock:
                yield
        except Timeout as e:
            raise ModelNotConfigured(
                f"Another process holds the script cursor lock {self._lock.lock_file}. Stop "
                f"the other Studyhall process using this data folder, then retry.",
                role=role,
            ) from e
        except OSError as e:
            raise store_error(f"lock the script cursor {self._cursor_path}", e) from e

    def _read_cursors(self) -> dict[str, int]:
        try:
            raw = self._cursor_path.read_bytes()
        except FileNotFoundError:
            return {}
        except OSError as e:
            raise store_error(f"read the script cursor {self._cursor_path}", e, write=False) from e
        try:
            data = json.loads(raw)
            cursors = data["cursors"]
            if data.get("script_sha256") != self._digest:
                return {}  # a different script: start it from the top
            if not isinstance(cursors, dict) or not all(
                isinstance(v, int) and v >= 0 for v in cursors.values()
            ):
                raise ValueError("cursors must be non-negative integers")
            return {str(k): int(v) for k, v in cursors.items()}
        except (ValueError, KeyError, TypeError) as e:
            raise ModelScriptInvalid(
                f"The script cursor {self._cursor_path} is unreadable ({e}). Delete it to start "
                f"the script over."
            ) from e

    def _write_cursors(self, cursors: dict[str, int]) -> None:
        body = {"script": self._source, "script_sha256": self._digest, "cursors": cursors}
        data = json.dumps(body, sort_keys=True).encode()
        # Temp file + rename: a killed process leaves the old cursor or the new one, never half.
        # No fsync on purpose: the cursor only has to survive a process kill (the page cache
        # does), and two fsyncs per scripted call would dominate a scripted turn's latency.
        tmp = self._cursor_path.with_name(f".{self._cursor_path.name}.{secrets.token_hex(4)}.tmp")
        with translated(f"save the script cursor {self._cursor_path}"):
            try:
                tmp.write_bytes(data)
                os.replace(tmp, self._cursor_path)
            except BaseException:
                tmp.unlink(missing_ok=True)
                raise


# --- an entry as litellm's mock_response -------------------------------------------------------

def mock_error(litellm: ModuleType, kind: str, target: CallTarget) -> BaseException:
    kw = {"llm_provider": target.provider, "model": target.model}
    if kind == "auth":
        return litellm.AuthenticationError(message="scripted: the key was refused", **kw)
    if kind == "rate_limit":
        return litellm.RateLimitError(message="scripted: rate limited", **kw)
    if kind == "timeout":
        return litellm.Timeout(message="scripted: request timed out", **kw)
    if kind == "server":
        return litellm.InternalServerError(message="scripted: provider error", **kw)
    if kind == "context_too_long":
        return litellm.ContextWindowExceededError(message="scripted: prompt too long", **kw)
    if kind == "bad_request":
        return litellm.BadRequestError(message="scripted: request rejected", **kw)
    raise ValueError(f"unknown scripted error kind {kind!r}")


def _is_magic(text: str) -> bool:
    # litellm turns a few literal strings into exceptions; such text must travel another way.
    return text.startswith(("litellm.", "Exception: "))


def mock_response_for(litellm: ModuleType, entry: ScriptEntry, target: CallTarget) -> Any:
    """The ``mock_response=`` value that makes litellm answer exactly like ``entry``."""
    if entry.error is not None:
        return mock_error(litellm, entry.error, target)
    text = entry.answer_text
    if not entry.tool_calls and not _is_magic(text or "") and entry.finish is None:
        return text or ""
    calls = [
        {
            "id": entry.tool_call_id(k),
            "type": "function",
            "function": {
                "name": call.name,
                "arguments": call.arguments
                if isinstance(call.arguments, str)
                else json.dumps(call.arguments, ensure_ascii=False),
            },
        }
        for k, call in enumerate(entry.tool_calls)
    ]
    message: dict[str, Any] = {"role": "assistant", "content": text or None}
    if calls:
        message["tool_calls"] = calls
    return litellm.ModelResponse(
        model=target.model,
        choices=[
            {"index": 0, "finish_reason": entry.finish or ("tool_calls" if calls else "stop"),
             "message": message}
        ],
    )
