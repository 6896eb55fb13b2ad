"""The session API as a client uses it: the real app with STUDYHALL_SCRIPT over ASGI HTTP, SSE parsing."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from studyhall.server.app import build_runtime, build_services
from studyhall.server.config import load_config
from studyhall.server.runtime.runtime import Runtime
from studyhall.server.services import Services
from studyhall.server.web import build_app

PORT = 48123  # the Host/Origin guard needs a port; ASGI tests never bind it


@dataclass
class Sse:
    status: int
    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    body: Any = None  # the JSON error body of a refused request
    headers: dict[str, str] = field(default_factory=dict)

    def names(self) -> list[str]:
        return [name for name, _ in self.events]

    def of(self, name: str) -> list[dict[str, Any]]:
        return [data for n, data in self.events if n == name]

    def text(self) -> str:
        return "".join(d["text"] for d in self.of("text-delta"))

    @property
    def last(self) -> tuple[str, dict[str, Any]]:
        return self.events[-1]


def parse_sse(raw: str) -> list[tuple[str, dict[str, Any]]]:
    events: list[tuple[str, dict[str, Any]]] = []
    for block in raw.split("\n\n"):
        if not block.strip():
            continue
        name, data = "message", []
        for line in block.split("\n"):
            if line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].strip())
        events.append((name, json.loads("\n".join(data)) if data else {}))
    return events


def write_script(path: Path, script: dict[str, Any]) -> Path:
    path.write_text(json.dumps(script))
    return path


class Api:
    """The session API as a learner's client uses it."""

    def __init__(self, client: httpx.AsyncClient) -> None:
        self.http = client

    async def new_chat(self, topic: str | None = "graphs") -> str:
        r = await self.http.post("/api/chats", json={"topic": topic} if topic else {})
        assert r.status_code == 200, r.text
        return r.json()["id"]

    async def chat(self, chat_id: str) -> dict[str, Any]:
        r = await self.http.get(f"/api/chats/{chat_id}")
        assert r.status_code == 200, r.text
        return r.json()

    async def _sse(self, url: str, body: dict[str, Any] | None = None) -> Sse:
        r = await self.http.post(url, json=body)
        if not r.headers.get("content-type", "").startswith("text/event-stream"):
            return Sse(r.status_code, body=r.json(), headers=dict(r.headers))
        return Sse(r.status_code, parse_sse(r.text), headers=dict(r.headers))

    async def say(self, chat_id: str, text: str, **extra: Any) -> Sse:
        return await self._sse(f"/api/chats/{chat_id}/messages", {"text": text, **extra})

    async def answer(self, chat_id: str, tool_call_id: str, answer: dict[str, Any]) -> Sse:
        return await self._sse(
            f"/api/chats/{chat_id}/answers", {"tool_call_id": tool_call_id, "answer": answer}
        )

    async def resume(self, chat_id: str) -> Sse:
        return await self._sse(f"/api/chats/{chat_id}/continue")


@asynccontextmanager
async def scripted_app(
    script: Path | None, services: Services | None = None, **overrides: Any
) -> AsyncIterator[tuple[Api, Runtime]]:
    """The real app (build_services + build_runtime + build_app) with STUDYHALL_SCRIPT, over
    ASGI HTTP, started (its lifespan) for the block. ``services``: ports a test replaced."""
    config = load_config(port=PORT, script_path=script, **overrides)
    runtime = build_runtime(services or build_services(config))
    app = build_app(config, runtime)
    transport = httpx.ASGITransport(app=app)
    headers = {"Authorization": f"Bearer {config.token}"}
    async with app.router.lifespan_context(app), httpx.AsyncClient(
        transport=transport, base_url=f"http://127.0.0.1:{PORT}", headers=headers,
        timeout=30,
    ) as client:
        yield Api(client), runtime
