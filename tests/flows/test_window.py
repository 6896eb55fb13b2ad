"""The real pywebview window (Qt WebEngine, offscreen) loads the app and stays on its origin."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from studyhall.desktop.window import gui_problem

from tests.support.server import child_env, running_child

PROBE = Path(__file__).resolve().parents[1] / "support" / "window_probe.py"
# Qt WebEngine cannot start at all (libraries missing): the only reason to skip.
_QT_CANNOT_START = ("Could not load the Qt platform plugin", "libQt6WebEngine", "cannot open shared object")


@pytest.mark.desktop
def test_window_loads_the_page_and_its_health_fetch_succeeds(tmp_path):
    env = child_env(tmp_path, QT_QPA_PLATFORM="offscreen")
    env["QTWEBENGINE_CHROMIUM_FLAGS"] = (env.get("QTWEBENGINE_CHROMIUM_FLAGS", "") + " --no-sandbox").strip()
    problem = gui_problem()  # conftest runs Qt offscreen, so only a missing package shows here
    if problem is not None:
        pytest.skip(f"Qt WebEngine is not installed: {problem}")
    report_path = tmp_path / "report.json"
    with running_child(tmp_path / "data") as (_, info):
        result = subprocess.run(
            [sys.executable, str(PROBE), str(report_path)], input=f"{info.launch_url}\n",
            env=env, capture_output=True, text=True, timeout=120, check=False,
        )
    if not report_path.exists():
        if any(marker in result.stderr for marker in _QT_CANNOT_START):
            pytest.skip(f"Qt WebEngine cannot start here: {result.stderr.strip()[-300:]}")
        raise AssertionError(f"the window probe failed ({result.returncode}):\n{result.stderr[-3000:]}")
    report = json.loads(report_path.read_text())
    assert "probe_error" not in report, report
    assert report["health"] == "ok", report  # the page's own fetch of /api/health succeeded
    assert report["version"] == "0.1.0"
    # The start URL's token was traded for a cookie and dropped from the address bar.
    assert report["url_after_load"] == f"{info.url}/"
    # Navigating off the app's origin is refused inside the window and handed to the browser.
    assert report["url_after_external_nav"] == f"{info.url}/"
    assert report["still_app_page"] == "Studyhall"
    assert report["handed_to_browser"] == ["http://example.invalid/elsewhere"]


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(stat[1]) == pid:
                found.append(int(entry.name))
    return found


@pytest.mark.desktop
def test_window_mode_opens_the_window_process_and_stops_it_with_the_server(tmp_path):
    import time

    from tests.support.server import start_child, wait_for_server

    env = child_env(tmp_path, QT_QPA_PLATFORM="offscreen")
    child = start_child(tmp_path, env=env)  # window mode, offscreen
    try:
        info = wait_for_server(child)
        deadline = time.monotonic() + 30
        windows: list[int] = []
        while time.monotonic() < deadline and not windows:
            windows = [p for p in _children(child.proc.pid)
                       if b"studyhall.desktop.window" in Path(f"/proc/{p}/cmdline").read_bytes()]
            time.sleep(0.1)
        assert windows, "the launcher did not start the window process"
        cmdline = Path(f"/proc/{windows[0]}/cmdline").read_bytes().decode()
        assert info.token not in cmdline  # the start URL travels on stdin
    finally:
        code = child.stop()
    assert code == 0, child.output()
    assert not (tmp_path / "server.json").exists()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and Path(f"/proc/{windows[0]}").exists():
        state = (Path(f"/proc/{windows[0]}") / "stat").read_text().rsplit(")", 1)[1].split()[0]
        if state == "Z":
            break
        time.sleep(0.1)
    alive = Path(f"/proc/{windows[0]}").exists() and state != "Z"
    assert not alive, "the window process outlived the server"
