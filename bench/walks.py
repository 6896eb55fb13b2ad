"""Walks: the files of ``src/`` five requests cross, in the order each is first entered
(docs/walks.md's method, re-runnable).

    .venv/bin/python bench/walks.py [--walk message|next-message|import|ask|grade] [--markdown]

Each walk sends its request to the real app (``build_services`` -> ``build_runtime`` ->
``build_app``, ``tests/support/session_api.py`` over ASGI, scripted models, no key, a temporary
data folder) with a profiler (``sys.setprofile`` and ``threading.setprofile``, so work sent to a
thread counts) recording every Python function entered in ``src/`` from the request until the
app's supervisor is idle again. Set-up (the import an Ask needs, the graph a grade needs) runs
before the profiler starts. Heavy local models are replaced by test doubles, named per walk and
not counted (they live in ``tests/``). Prints per walk the file count and the ordered list
(file, layer); ``--markdown`` prints the tables of docs/walks.md instead.
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import os
import sys
import tempfile
import threading
from collections.abc import Awaitable, Callable
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from types import FrameType
from typing import Any

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # for tests.support

import studyhall
from studyhall.server.app import build_services
from studyhall.server.config import load_config

from tests.support.course import OverlapScorer, vtt
from tests.support.embedder import HashEmbedder
from tests.support.graph_events import cp, prop, quiz
from tests.support.notes import write_vault
from tests.support.session_api import PORT, parse_sse, scripted_app, write_script

SRC = os.path.dirname(studyhall.__file__) + os.sep  # as code objects name their files
GRAPH_TOPIC = "Hi, I want to learn graph theory"
LECTURE = [
    (0, 6, "Mark and sweep marks every object reachable from the roots."),
    (7, 13, "The sweep phase frees every unmarked object."),
    (100, 106, "Reference counting cannot reclaim cycles of objects."),
]


@dataclass(frozen=True)
class Walk:
    name: str
    request: str  # what is sent, as docs/walks.md names it
    doubles: str  # the test doubles standing in for heavy local models (not counted)
    run: Callable[[Path, Callable[[], Any]], Awaitable[None]]  # (tmp, profiled) -> None


class Recorder:
    """Every ``src/`` file a function of which is entered, in first-entered order. The thread
    hook is installed before the app starts, so the worker threads it spawns carry it (Python
    3.11 cannot reach a running thread); it records only while ``recording`` is on."""

    def __init__(self) -> None:
        self.files: dict[str, None] = {}
        self._on = False
        threading.setprofile(self._profile)

    def _profile(self, frame: FrameType, event: str, arg: object) -> None:
        if event == "call" and self._on:
            name = frame.f_code.co_filename
            if name.startswith(SRC):
                self.files.setdefault(name[len(SRC):], None)

    @contextmanager
    def recording(self) -> Any:
        self._on = True
        sys.setprofile(self._profile)
        try:
            yield
        finally:
            sys.setprofile(None)
            self._on = False

    def close(self) -> None:
        threading.setprofile(None)


def layer(path: str) -> str:
    top, _, rest = path.partition("/")
    if top == "server":
        if rest.startswith("http/"):
            return "route"
        if rest.startswith("runtime/"):
            return "runtime"
        return "server"
    return top  # core, adapters, desktop


def docstring(path: str) -> str:
    text = ast.get_docstring(ast.parse(Path(SRC, path).read_text())) or ""
    first = " ".join(text.split("\n\n")[0].split()).replace("|", "\\|")  # a table cell
    return first if len(first) <= 110 else first[:109] + " …"


# --- the five walks -------------------------------------------------------------------------------

async def _routes_built(api: Any) -> None:
    """Build every lazy route group first (the OpenAPI document walks the whole table), as
    after the app's first requests, and let start-up work end: a walk counts the request, not
    the start-up's tail."""
    r = await api.http.get("/api/openapi.json")
    assert r.status_code == 200, r.text
    # The start-up's background work (the keyring preload) is not the request's: let it end.
    for thread in threading.enumerate():
        if thread.name == "start-up work":
            await asyncio.to_thread(thread.join, 30)
    # Nor is the local encoder's one-time set-up in a fresh data folder (the activity strip's
    # "Preparing local search"): wait until the strip shows nothing running.
    for _ in range(1200):
        r = await api.http.get("/api/activity")
        if not r.json()["running"]:
            break
        await asyncio.sleep(0.1)


async def _message(tmp: Path, profiled: Callable[[], Any]) -> None:

    script = write_script(tmp / "script.json", {
        "prober": [{"text": "Hello! What do you know about graphs?"}],
        "labeler": [{"text": "Graphs"}]})
    async with scripted_app(script, data_dir=tmp / "data") as (api, runtime):
        chat_id = await api.new_chat(None)
        await runtime.supervisor.idle()
        await _routes_built(api)
        with profiled():
            r = await api.say(chat_id, GRAPH_TOPIC)
            await runtime.supervisor.idle()
        assert r.status == 200 and r.names()[-1] == "finish", r.names()


async def _next_message(tmp: Path, profiled: Callable[[], Any]) -> None:

    script = write_script(tmp / "script.json", {
        "prober": [{"text": "Hello! What do you know about graphs?"},
                   {"text": "Good. Have you met breadth-first search?"}],
        "labeler": [{"text": "Graphs"}]})
    async with scripted_app(script, data_dir=tmp / "data") as (api, runtime):
        chat_id = await api.new_chat(None)
        await runtime.supervisor.idle()
        await _routes_built(api)
        first = await api.say(chat_id, GRAPH_TOPIC)
        await runtime.supervisor.idle()
        assert first.status == 200 and first.names()[-1] == "finish", first.names()
        with profiled():
            r = await api.say(chat_id, "I know what vertices and edges are.")
            await runtime.supervisor.idle()
        assert r.status == 200 and r.names()[-1] == "finish", r.names()


async def _import(tmp: Path, profiled: Callable[[], Any]) -> None:

    vault = write_vault(tmp / "Vault")
    services = replace(build_services(load_config(port=PORT, data_dir=tmp / "data")),
                       embedder=HashEmbedder())
    async with scripted_app(None, services) as (api, runtime):
        await _routes_built(api)
        with profiled():
            r = await api.http.post("/api/graph/import", json={"path": str(vault)})
            assert r.status_code == 202, r.text
            run_id = r.json()["run_id"]
            while (run := (await api.http.get(f"/api/graph/import/{run_id}")).json())[
                    "status"] == "running":
                await asyncio.sleep(0.02)
            await runtime.supervisor.idle()
        assert run["status"] == "done", run


async def _ask(tmp: Path, profiled: Callable[[], Any]) -> None:

    (tmp / "course").mkdir()
    (tmp / "course" / "gc.vtt").write_text(vtt(LECTURE))
    script = write_script(tmp / "script.json", {
        "reranker": [{"json": {"grades": [{"n": 1, "grade": "answers"},
                                          {"n": 2, "grade": "related"}]}}],
        "answerer": [{"text": "It marks what the roots reach [1]."}]})
    services = replace(
        build_services(load_config(port=PORT, script_path=script, data_dir=tmp / "data")),
        embedder=HashEmbedder(), passage_scorer=OverlapScorer())
    async with scripted_app(script, services) as (api, runtime):
        await runtime.library.index_material(str(tmp / "course"))
        await runtime.supervisor.idle()
        await _routes_built(api)
        with profiled():
            r = await api.http.post("/api/ask", json={"question": "What does mark and sweep mark?"})
            await runtime.supervisor.idle()
        names = [n for n, _ in parse_sse(r.text)]
        assert r.status_code == 200 and names[-1] == "finish", names


async def _grade(tmp: Path, profiled: Callable[[], Any]) -> None:

    services = build_services(load_config(port=PORT, data_dir=tmp / "data"))
    graph = services.graph_store
    graph.append_propositions([prop("heap", text="A heap is a complete binary tree.")])
    graph.append_quiz_events([quiz("heap", "miss", 1)])
    graph.append_checkpoint(cp("r1"))
    async with scripted_app(None, services) as (api, runtime):
        await _routes_built(api)
        with profiled():
            r = await api.http.post("/api/review/heap", json={"grade": "good"})
            await runtime.supervisor.idle()
        assert r.status_code == 200, r.text


WALKS = {
    "message": Walk("message", '`POST /api/chats/{id}/messages` `{"text": "Hi, I want to learn '
                    'graph theory"}`, the first message of a new session (scripted prober '
                    "and labeler)", "none", _message),
    "next-message": Walk("next-message", "the same request, the second message of that "
                         "session (its title and its model's capabilities known by then)",
                         "none", _next_message),
    "import": Walk("import", '`POST /api/graph/import` `{"path": …}` over '
                   "`tests/support/notes.py: write_vault` (a small Obsidian-style vault), no "
                   "model, then `GET /api/graph/import/{run_id}` until it is done",
                   "`tests/support/embedder.py` (HashEmbedder) for the bundled encoder", _import),
    "ask": Walk("ask", '`POST /api/ask` `{"question": "What does mark and sweep mark?"}` over '
                "one imported transcript (scripted reranker and answerer)",
                "`tests/support/embedder.py` (HashEmbedder) for the bundled encoder, "
                "`tests/support/course.py` (OverlapScorer) for its late-interaction scorer",
                _ask),
    "grade": Walk("grade", '`POST /api/review/heap` `{"grade": "good"}` on a node with one '
                  "graded quiz answer, no model", "none", _grade),
}


def walk(name: str) -> list[str]:
    recorder = Recorder()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["STUDYHALL_DATA_DIR"] = str(Path(tmp) / "data")
        try:
            asyncio.run(WALKS[name].run(Path(tmp), recorder.recording))
        finally:
            recorder.close()
    return list(recorder.files)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--walk", choices=sorted(WALKS), action="append",
                        help="one walk (repeatable); all five by default")
    parser.add_argument("--markdown", action="store_true", help="print docs/walks.md tables")
    args = parser.parse_args()
    for name in args.walk or list(WALKS):
        files = walk(name)
        spec = WALKS[name]
        if args.markdown:
            print(f"## {name}\n\n{spec.request}. **{len(files)} files.** "
                  f"Test doubles (not counted): {spec.doubles}.\n")
            print("| # | File | Layer | What it holds (its docstring) |\n|---|---|---|---|")
            for i, f in enumerate(files, 1):
                print(f"| {i} | `src/{f}` | {layer(f)} | {docstring(f)} |")
            print()
        else:
            print(f"{name}: {len(files)} files (doubles: {spec.doubles})")
            for i, f in enumerate(files, 1):
                print(f"  {i:3d}  {layer(f):8s} src/{f}")


if __name__ == "__main__":
    main()
