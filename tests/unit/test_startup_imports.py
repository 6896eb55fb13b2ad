"""Start-up stays fast: building the app, serving its first page, and the CLI's light commands
never import the heavy libraries (each costs from tens of milliseconds to seconds)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HEAVY = (
    # seconds each: the model stack and the GUI
    "torch", "sentence_transformers", "litellm", "transformers", "webview", "PyQt6",
    # tens of milliseconds each: needed only once material is imported, searched or checked
    "numpy", "scipy", "sklearn", "networkx", "PIL", "markdown_it", "bm25s", "yaml", "pypdf", "webvtt", "playwright",
    "fsrs",  # the review scheduler (~35 ms): loaded by the first review read
    # a few milliseconds each: the first Anki deck, diagram check, search, browser fallback
    "sqlite3", "xml.etree.ElementTree", "Stemmer", "webbrowser",
)

_PROBE = f"""
import json, sys
print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))
"""

_SCRIPT = f"""
from studyhall.desktop.cli import build_parser
build_parser()
import studyhall.desktop.launcher  # what `studyhall` imports to serve
from studyhall.server.app import build_runtime, build_services
from studyhall.server.web import build_app
from studyhall.server.config import load_config
config = load_config(port=5000)
app = build_app(config, build_runtime(build_services(config)))
from starlette.testclient import TestClient
with TestClient(app, base_url="http://127.0.0.1:5000") as client:
    auth = {{"Authorization": "Bearer " + config.token}}
    assert client.get("/api/health", headers=auth).status_code == 200
    assert client.get("/", headers=auth).status_code == 200  # the first page
{_PROBE}"""


# Route groups and what only they use: loaded by the first request under their paths
# (server/http/lazy_routes.py), not by start-up, /api/health or the first page.
ON_FIRST_REQUEST = (
    *(f"studyhall.server.http.{group}" for group in (
        "activity", "artifacts", "ask", "chats", "demo_frames", "exports", "graph",
        "graph_search", "imports", "review", "settings", "source_quiz", "sources")),
    "studyhall.server.http.sse", "studyhall.server.runtime.library.source_library",
    "studyhall.server.runtime.library.source_quiz", "studyhall.core.library.graph.interchange",
    "studyhall.core.contracts.source_quiz", "xml.sax", "orjson",
)

# A lazily loaded module sits in sys.modules before it runs; only a plain module has run.
_LOADED_PROBE = f"""
import json, sys, types
print(json.dumps([m for m in {ON_FIRST_REQUEST!r}
                  if type(sys.modules.get(m)) is types.ModuleType]))
"""


def _heavy_imported(script: str) -> list[str]:
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    imported: list[str] = json.loads(result.stdout.strip().splitlines()[-1])
    return imported


def test_building_and_starting_the_app_imports_no_heavy_library():
    assert _heavy_imported(_SCRIPT) == []


def test_checking_a_plan_from_the_command_line_imports_no_heavy_library(tmp_path: Path):
    plan = tmp_path / "plan.mmd"
    plan.write_text("flowchart TD\n  a[Start] --> b[Next]\n", encoding="utf-8")
    script = (
        "from studyhall.desktop.cli import main\n"
        f"assert main(['plan', 'check', {str(plan)!r}]) == 0\n" + _PROBE
    )
    assert _heavy_imported(script) == []


def test_the_check_can_fail():
    # Guard against a vacuous check: the same probe sees a heavy import when one happens.
    script = "import litellm, numpy\n" + _PROBE
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False,
                            env={"LITELLM_LOCAL_MODEL_COST_MAP": "True", "PATH": "/usr/bin:/bin"})
    assert set(json.loads(result.stdout.strip().splitlines()[-1])) >= {"litellm", "numpy"}


def test_every_model_builds():
    # Contract records (and the model-output shapes) defer building their validators to first
    # use (``defer_build``: start-up does not pay for shapes it does not touch), so a broken
    # shape would surface late; build every one here instead.
    import importlib
    import pkgutil

    import studyhall.core
    import studyhall.server.app  # its routes define request models
    from pydantic import BaseModel

    for info in pkgutil.walk_packages(studyhall.core.__path__, "studyhall.core."):
        importlib.import_module(info.name)
    models, todo = [], [BaseModel]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            if sub.__module__.startswith("studyhall."):
                models.append(sub)
    assert len(models) > 40
    for model in models:
        assert model.model_rebuild(force=True), model.__qualname__
        assert model.__pydantic_complete__, model.__qualname__


def test_start_up_builds_no_route_shape_and_compiles_no_guardrail_pattern():
    # Route shapes are ``BodyModel``s (validators deferred) and the guardrails' patterns are
    # ``LazyPattern``s: both are paid for by the first request that needs them, not at start-up.
    script = _SCRIPT + """
import studyhall.server.http.review as review
from studyhall.core.guardrails import intent, structured
assert not review.ReviewQueue.__pydantic_complete__, "route shapes were built at start-up"
assert intent._QUIZ._compiled is None and structured._EMAIL._compiled is None
"""
    _heavy_imported(script)


def test_start_up_loads_no_route_group_until_its_first_request():
    assert _heavy_imported(_SCRIPT.replace(_PROBE, _LOADED_PROBE)) == []


def test_the_route_group_check_can_fail():
    # Guard against a vacuous check: the OpenAPI document walks (so loads) every group.
    script = _SCRIPT.replace(_PROBE, """
with TestClient(app, base_url="http://127.0.0.1:5000") as client:
    assert client.get("/api/openapi.json", headers=auth).status_code == 200
""" + _LOADED_PROBE)
    # The Library façade builds the shelf and Quiz me on their first use, later than a walk of
    # the route table: those two runtime modules stay unloaded until a request needs them.
    on_first_use = {"studyhall.server.runtime.library.source_library",
                    "studyhall.server.runtime.library.source_quiz"}
    assert set(_heavy_imported(script)) == set(ON_FIRST_REQUEST) - on_first_use


# What the server answers /api/health with: the app itself (adapters, runtime, contracts,
# pydantic) is built right after, in a thread (server/boot.py).
BUILT_AFTER_HEALTH = ("pydantic", "studyhall.server.app", "studyhall.server.web",
                      "studyhall.server.services", "studyhall.server.runtime", "studyhall.adapters", "studyhall.core.ports",
                      "studyhall.core.library", "studyhall.core.agents", "studyhall.core.contracts.base")

_BEFORE_HEALTH = f"""
from studyhall.desktop.cli import build_parser
build_parser()
import studyhall.desktop.launcher  # what `studyhall` imports to serve: server/serve.py
import asyncio, httpx, json, sys
from studyhall.server.boot import BootingApp
from studyhall.server.config import load_config
config = load_config(port=5000)
app = BootingApp(config, lambda: None)  # its lifespan never starts: no build
async def health():
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                 base_url="http://127.0.0.1:5000") as client:
        auth = {{"Authorization": "Bearer " + config.token}}
        assert (await client.get("/api/health", headers=auth)).status_code == 200
asyncio.run(health())
def loaded():
    return sorted({{w for m in sys.modules for w in {BUILT_AFTER_HEALTH!r}
                   if m == w or m.startswith(w + ".")}})
print(json.dumps(loaded()))
import studyhall.server.web  # the guard against a vacuous check: the build loads them all
print(json.dumps(loaded()))
"""


def test_the_server_answers_health_before_it_loads_the_app():
    result = subprocess.run([sys.executable, "-c", _BEFORE_HEALTH], capture_output=True,
                            text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    before, built = (json.loads(line) for line in result.stdout.strip().splitlines()[-2:])
    assert before == []
    assert built == sorted(BUILT_AFTER_HEALTH)
