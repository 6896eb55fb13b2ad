"""Start-up stays fast: building the app (and the CLI parser) never imports the heavy libraries."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("torch", "sentence_transformers", "litellm", "transformers", "webview", "PyQt6")

_SCRIPT = f"""
import json, sys
from studyhall.desktop.cli import build_parser
build_parser()
from studyhall.server.app import build_app, build_services
from studyhall.server.config import load_config
config = load_config(port=5000)
app = build_app(config, build_services(config))
from starlette.testclient import TestClient
with TestClient(app, base_url="http://127.0.0.1:5000") as client:
    assert client.get("/api/health", headers={{"Authorization": "Bearer " + config.token}}).status_code == 200
print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))
"""


def test_building_and_starting_the_app_imports_no_heavy_library():
    result = subprocess.run(
        [sys.executable, "-c", _SCRIPT], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1]) == []


def test_the_check_can_fail():
    # Guard against a vacuous check: the same probe sees a heavy import when one happens.
    script = "import sys, json; import litellm; print(json.dumps([m for m in ('litellm',) if m in sys.modules]))"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False,
                            env={"LITELLM_LOCAL_MODEL_COST_MAP": "True", "PATH": "/usr/bin:/bin"})
    assert json.loads(result.stdout.strip().splitlines()[-1]) == ["litellm"]
