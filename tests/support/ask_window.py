"""For the Ask browser tests: a small course (a lecture transcript and a note), its import
through the HTTP API, and an answerer held mid-answer until the test lets it finish (so a
screenshot can catch the answer streaming)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import httpx
from studyhall.core.contracts.models import ModelEvent, ModelRequest, StreamedText
from studyhall.server.services import Services

from tests.support.chat_model import FunctionChatModel
from tests.support.course import OverlapScorer, vtt
from tests.support.embedder import HashEmbedder

LECTURE = [
    (0, 6, "Today: how a garbage collector finds the objects a program can no longer reach."),
    (754, 762, "Mark and sweep marks every object reachable from the roots."),
    (763, 770, "The sweep phase then frees every unmarked object, returning its memory."),
    (900, 908, "Reference counting cannot reclaim cycles of objects that point at each other."),
]
NOTE = """# Generational collection

Most objects die young, so the heap is split into a young and an old generation.

## Minor collections

A minor collection scans only the young generation and promotes survivors.
"""


def write_course(root: Path) -> Path:
    (root / "lectures").mkdir(parents=True)
    (root / "lectures" / "Lecture 07 - Garbage collection.vtt").write_text(vtt(LECTURE))
    (root / "Generational GC.md").write_text(NOTE)
    return root


def import_course(server, path: Path) -> None:  # type: ignore[no-untyped-def]
    headers = {"Authorization": f"Bearer {server.token}"}
    with httpx.Client(base_url=server.url, headers=headers, timeout=30) as http:
        run = http.post("/api/graph/import", json={"path": str(path)}).json()
        deadline = time.monotonic() + 60
        while http.get(f"/api/graph/import/{run['run_id']}").json()["status"] == "running":
            assert time.monotonic() < deadline, "the import did not finish"
            time.sleep(0.05)


def fast_search(services: Services) -> Services:
    """Stand-ins for the bundled MiniLM (the same ones the Ask flow tests use)."""
    return replace(services, embedder=HashEmbedder(), passage_scorer=OverlapScorer())


def holding_answerer(gate: threading.Event, after: int = 6):  # type: ignore[no-untyped-def]
    """A ``prepare`` that wraps the scripted model: the answerer's stream pauses after ``after``
    text deltas until ``gate`` is set; every other role (and the rest) passes through."""

    def prepare(services: Services) -> Services:
        inner = services.chat_model

        async def relay(request: ModelRequest) -> AsyncIterator[ModelEvent]:
            seen = 0
            async for event in inner.stream(request):
                if request.role == "answerer" and isinstance(event, StreamedText):
                    seen += 1
                    if seen == after:
                        while not gate.is_set():
                            await asyncio.sleep(0.02)
                yield event

        return fast_search(replace(services, chat_model=FunctionChatModel(relay)))

    return prepare
