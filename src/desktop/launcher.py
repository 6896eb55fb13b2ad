"""``studyhall`` with no command: one server per data dir, shown in a window (or a browser).

Flow: take the data dir's lock -> serve -> open the window in a child process -> stop when
the window closes. If another launch already holds the lock, reuse its server instead.
With no GUI: say so, try the system browser, print the URL and keep serving.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from html import escape
from pathlib import Path

from studyhall.desktop.window import NO_GUI
from studyhall.server.config import Config, load_config
from studyhall.server.instance import (
    InstanceLock,
    RunningServer,
    remove_server_file,
    wait_for_live_server,
)
from studyhall.server.serve import PortInUse, run_server

_REUSE_WAIT_S = 15.0  # the other launch may still be starting its server
_WINDOW_CMD = (sys.executable, "-m", "studyhall.desktop.window")


def launch(*, window: bool, port: int | None = None) -> int:
    config = load_config(**({"port": port} if port else {}))
    lock = InstanceLock(config.data_dir)
    if not lock.try_acquire():
        return _reuse(config, window=window)
    try:
        # We hold the lock, so any server.json left here belongs to a dead process.
        remove_server_file(config.data_dir)
        return run_server(
            config,
            on_ready=lambda info: _announce(info, config, window=window),
            stop_when=(lambda info: _supervise_window(info, config)) if window else None,
        )
    except PortInUse as e:
        print(f"studyhall: {e}", file=sys.stderr)
        return 1
    finally:
        _launch_page(config.data_dir).unlink(missing_ok=True)
        lock.release()


def _announce(info: RunningServer, config: Config, *, window: bool) -> None:
    print(f"Studyhall is running at {info.launch_url}", flush=True)
    print(f"Data folder: {config.data_dir}", flush=True)
    if not window:
        print("Open that address in your browser. Press Ctrl+C to stop.", flush=True)


def _reuse(config: Config, *, window: bool) -> int:
    info = wait_for_live_server(config.data_dir, timeout=_REUSE_WAIT_S)
    if info is None:
        print(
            f"studyhall: another Studyhall holds the data folder {config.data_dir} but does not "
            "answer. Close it (or end its process) and try again.",
            file=sys.stderr,
        )
        return 1
    print(f"Studyhall is already running (pid {info.pid}) at {info.launch_url}", flush=True)
    if window:
        _start_window(info, detached=True)
    return 0


def _start_window(info: RunningServer, *, detached: bool) -> subprocess.Popen[bytes]:
    # The tokened URL goes through stdin: argv is world-readable in /proc.
    proc = subprocess.Popen(
        _WINDOW_CMD, stdin=subprocess.PIPE, start_new_session=detached, close_fds=True
    )
    assert proc.stdin is not None
    proc.stdin.write(f"{info.launch_url}\n".encode())
    proc.stdin.close()
    return proc


async def _supervise_window(info: RunningServer, config: Config) -> None:
    """Return when the user closes the window; never return when there is no window."""
    proc = _start_window(info, detached=False)
    try:
        code = await asyncio.to_thread(proc.wait)
    except asyncio.CancelledError:
        # The server is stopping (Ctrl+C, SIGTERM): a window on a dead server is no use.
        proc.terminate()
        raise
    if code == 0:
        return
    reason = "no graphical display" if code == NO_GUI else f"the window stopped (exit {code})"
    print(f"studyhall: no desktop window ({reason}).", file=sys.stderr, flush=True)
    if _browser_plausible() and await asyncio.to_thread(_open_in_browser, info, config):
        print("Opened Studyhall in your web browser.", flush=True)
    print(f"Open {info.launch_url} in a browser. Press Ctrl+C to stop.", flush=True)
    await asyncio.Event().wait()  # keep serving until Ctrl+C / SIGTERM


def _browser_plausible() -> bool:
    # On a Linux box with no display, webbrowser would start a text browser in our terminal.
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def _launch_page(data_dir: Path) -> Path:
    return data_dir / "launch.html"


def _open_in_browser(info: RunningServer, config: Config) -> bool:
    """Open the browser on a private redirect page, so the token never lands in its argv."""
    page = _launch_page(config.data_dir)
    fd = os.open(page, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    url = escape(info.launch_url, quote=True)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(
            f'<!doctype html><meta http-equiv="refresh" content="0;url={url}">'
            f'<a href="{url}">Open Studyhall</a>'
        )
    import webbrowser  # only with no window: not on every start

    try:
        return webbrowser.open(page.as_uri(), new=2)
    except webbrowser.Error:
        return False
