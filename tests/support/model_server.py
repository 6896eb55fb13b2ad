"""A scripted model server on 127.0.0.1 for tests over real HTTP: OpenAI-compatible
``/v1/chat/completions`` (SSE chunks, tool-call fragments, usage) and Ollama's ``/api/chat``
(NDJSON), answering each request with the next ``Reply`` scripted for its model.

Failures are real ones: an HTTP status with a JSON reason (and ``Retry-After``), a chunked
stream whose connection closes before its last chunk (a cut), silence before the first byte.
The server can also refuse a ``response_format`` type (as LM Studio refuses ``json_object``)
and require a key. Every request is recorded (path, headers, JSON body) for assertions.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections import deque
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.support.model_replies import Reply, pieces, split_in

ANY_MODEL = "*"
LM_STUDIO_FORMAT_REFUSAL = "'response_format.type' must be 'json_schema' or 'text'"


@dataclass(frozen=True)
class Seen:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def model(self) -> str:
        return str(self.body.get("model", ""))

    @property
    def key(self) -> str | None:
        auth = self.headers.get("authorization", "")
        return auth[len("Bearer "):] if auth.startswith("Bearer ") else None

    @property
    def response_format(self) -> str | None:
        fmt = self.body.get("response_format")
        return fmt.get("type") if isinstance(fmt, dict) else None


class ScriptedModelServer:
    def __init__(self, *, refuse_formats: Iterable[str] = (), require_key: str | None = None,
                 style: str = "openai", models: Iterable[str] = ()) -> None:
        self._replies: dict[str, deque[Reply]] = {}
        self._lock = threading.Lock()
        self.requests: list[Seen] = []
        self.refuse_formats = set(refuse_formats)
        self.require_key = require_key
        self.style = style  # "openai" or "ollama": what api_base points at
        self.models = tuple(models)  # what /v1/models and /api/tags list
        self._http = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._http.daemon_threads = True
        self._thread = threading.Thread(target=self._http.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return int(self._http.server_address[1])

    @property
    def api_base(self) -> str:
        root = f"http://127.0.0.1:{self.port}"
        return f"{root}/v1" if self.style == "openai" else root

    def script(self, model: str, *replies: Reply) -> ScriptedModelServer:
        with self._lock:
            self._replies.setdefault(model, deque()).extend(replies)
        return self

    def left(self, model: str) -> int:
        with self._lock:
            return len(self._replies.get(model, ()))

    def chat_requests(self, model: str | None = None) -> list[Seen]:
        return [s for s in self.requests if s.path.endswith(("/chat/completions", "/api/chat"))
                and (model is None or s.model == model)]

    def next_reply(self, model: str) -> Reply | None:
        with self._lock:
            for name in (model, ANY_MODEL):
                queue = self._replies.get(name)
                if queue:
                    return queue.popleft()
        return None

    def start(self) -> ScriptedModelServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._http.shutdown()
        self._http.server_close()


@contextmanager
def model_server(**options: Any) -> Iterator[ScriptedModelServer]:
    server = ScriptedModelServer(**options).start()
    try:
        yield server
    finally:
        server.stop()


def _handler(server: ScriptedModelServer) -> type[BaseHTTPRequestHandler]:
    class Handler(_Handler):
        owner = server

    return Handler


class _Handler(BaseHTTPRequestHandler):
    owner: ScriptedModelServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass  # quiet test output

    def do_GET(self) -> None:
        if self.path.rstrip("/").endswith(("/models", "/api/tags")):
            self._json(200, {"object": "list", "data": [{"id": m} for m in self.owner.models],
                             "models": [{"name": m} for m in self.owner.models]})
        else:
            self._json(404, {"error": {"message": f"no route {self.path}"}})

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except json.JSONDecodeError:
            body = {}
        seen = Seen(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
        self.owner.requests.append(seen)
        if self.path.endswith("/api/show"):
            self._json(200, {"capabilities": ["completion", "tools"], "model_info": {},
                             "template": "", "details": {}})
            return
        if not self.path.endswith(("/chat/completions", "/api/chat")):
            self._json(404, {"error": {"message": f"no route {self.path}"}})
            return
        if self.owner.require_key is not None and seen.key != self.owner.require_key:
            self._json(401, {"error": {"message": "Invalid API key: this server wants a key",
                                       "type": "invalid_request_error"}})
            return
        if seen.response_format in self.owner.refuse_formats:
            self._json(400, {"error": LM_STUDIO_FORMAT_REFUSAL})
            return
        reply = self.owner.next_reply(seen.model)
        if reply is None:
            self._json(500, {"error": {"message": f"no scripted reply left for {seen.model}"}})
            return
        if reply.first_byte_delay:
            time.sleep(reply.first_byte_delay)
        if reply.failed:
            self._json(reply.status, {"error": {"message": reply.reason, "type": "server_error"}},
                       reply.headers)
            return
        ollama = self.path.endswith("/api/chat")
        if body.get("stream") is False:
            self._json(200, _ollama_whole(reply, seen.model) if ollama
                       else _openai_whole(reply, seen.model))
            return
        usage_wanted = bool((body.get("stream_options") or {}).get("include_usage"))
        frames = (_ollama_frames(reply, seen.model) if ollama
                  else _openai_frames(reply, seen.model, usage_wanted))
        self._stream(frames, "application/x-ndjson" if ollama else "text/event-stream")

    # --- writing ------------------------------------------------------------------------------

    def _json(self, status: int, value: Any, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, v in (headers or {}).items():
            self.send_header(name, v)
        self.end_headers()
        self.wfile.write(data)

    def _stream(self, frames: Iterable[bytes | None], content_type: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for frame in frames:
            if frame is None:  # the cut: the connection closes before the last chunk
                self.wfile.flush()
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)
                return
            self.wfile.write(f"{len(frame):x}\r\n".encode() + frame + b"\r\n")
            self.wfile.flush()
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()


# --- OpenAI chunks ----------------------------------------------------------------------------


def _sse(value: Any) -> bytes:
    return f"data: {json.dumps(value)}\n\n".encode()


def _openai_frames(reply: Reply, model: str, usage_wanted: bool) -> Iterator[bytes | None]:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
        return _sse({"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": 0,
                     "model": model,
                     "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})

    yield chunk({"role": "assistant", "content": ""})
    for piece in pieces(reply.reasoning, reply.chunk_chars) if reply.reasoning else ():
        yield chunk({"reasoning_content": piece})
    sent = 0
    for piece in pieces(reply.text, reply.chunk_chars) if reply.text else ():
        if reply.cut_after is not None and sent + len(piece) > reply.cut_after:
            yield None
            return
        sent += len(piece)
        yield chunk({"content": piece})
    for index, call in enumerate(reply.calls):
        raw = json.dumps(call.arguments)
        yield chunk({"tool_calls": [{"index": index, "id": f"call_{index}_test", "type": "function",
                                     "function": {"name": call.name, "arguments": ""}}]})
        fragments = split_in(raw, call.fragments)
        for n, fragment in enumerate(fragments):
            if reply.cut_in_call and index == 0 and n >= len(fragments) // 2:
                yield None
                return
            yield chunk({"tool_calls": [{"index": index, "function": {"arguments": fragment}}]})
    if reply.cut_after is not None:
        yield None
        return
    yield chunk({}, reply.finish_reason or ("tool_calls" if reply.calls else "stop"))
    if usage_wanted:
        prompt, completion = reply.tokens()
        yield _sse({"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": 0,
                    "model": model, "choices": [],
                    "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
                              "total_tokens": prompt + completion}})
    yield b"data: [DONE]\n\n"


def _openai_whole(reply: Reply, model: str) -> dict[str, Any]:
    prompt, completion = reply.tokens()
    message: dict[str, Any] = {"role": "assistant", "content": reply.text or None}
    if reply.calls:
        message["tool_calls"] = [
            {"id": f"call_{i}_test", "type": "function",
             "function": {"name": c.name, "arguments": json.dumps(c.arguments)}}
            for i, c in enumerate(reply.calls)]
    return {"id": "chatcmpl-test", "object": "chat.completion", "created": 0, "model": model,
            "choices": [{"index": 0, "message": message,
                         "finish_reason": reply.finish_reason or ("tool_calls" if reply.calls
                                                                   else "stop")}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
                      "total_tokens": prompt + completion}}


# --- Ollama lines -----------------------------------------------------------------------------


def _line(value: Any) -> bytes:
    return (json.dumps(value) + "\n").encode()


def _ollama_frames(reply: Reply, model: str) -> Iterator[bytes | None]:
    def line(message: dict[str, Any], **extra: Any) -> bytes:
        return _line({"model": model, "created_at": "2026-01-01T00:00:00Z",
                      "message": {"role": "assistant", "content": "", **message},
                      "done": False, **extra})

    for piece in pieces(reply.reasoning, reply.chunk_chars) if reply.reasoning else ():
        yield line({"thinking": piece})
    sent = 0
    for piece in pieces(reply.text, reply.chunk_chars) if reply.text else ():
        if reply.cut_after is not None and sent + len(piece) > reply.cut_after:
            yield None
            return
        sent += len(piece)
        yield line({"content": piece})
    if reply.cut_in_call:
        yield None
        return
    if reply.calls:  # Ollama sends whole calls, arguments as an object, then "stop"
        yield line({"tool_calls": [{"function": {"name": c.name, "arguments": c.arguments}}
                                   for c in reply.calls]})
    prompt, completion = reply.tokens()
    yield _line({"model": model, "created_at": "2026-01-01T00:00:00Z",
                 "message": {"role": "assistant", "content": ""}, "done": True,
                 "done_reason": reply.finish_reason or "stop", "prompt_eval_count": prompt,
                 "eval_count": completion})


def _ollama_whole(reply: Reply, model: str) -> dict[str, Any]:
    prompt, completion = reply.tokens()
    message: dict[str, Any] = {"role": "assistant", "content": reply.text}
    if reply.calls:
        message["tool_calls"] = [{"function": {"name": c.name, "arguments": c.arguments}}
                                 for c in reply.calls]
    return {"model": model, "created_at": "2026-01-01T00:00:00Z", "message": message,
            "done": True, "done_reason": "stop", "prompt_eval_count": prompt,
            "eval_count": completion}
