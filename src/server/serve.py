"""Run the app with uvicorn on a loopback socket until a signal (or the window) says stop.

The socket is bound *before* the app is built, so the Host/Origin guard knows the real port
and there is no race between picking a free port and using it. ``server.json`` is written
once the server answers and removed on every clean exit (Ctrl+C, SIGTERM, window closed).
Stopping takes well under two seconds: the runtime is stopped *first* (live streams end, every
background task is cancelled at a safe point), so uvicorn has no open response to wait for.
"""

from __future__ import annotations

import asyncio
import errno
import gc
import logging
import os
import signal
import socket
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from studyhall.server.boot import BootingApp
from studyhall.server.config import Config
from studyhall.server.instance import RunningServer, remove_server_file, write_server_file
from studyhall.server.logging import setup_logging, tag

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from studyhall.server.runtime.runtime import Runtime

log = logging.getLogger("studyhall.server")

OnReady = Callable[[RunningServer], None]
StopWhen = Callable[[RunningServer], Awaitable[None]]


class PortInUse(Exception):
    def __init__(self, port: int) -> None:
        super().__init__(
            f"Port {port} is already in use. Pick another with --port, or leave --port out to "
            "use a free one."
        )


def bind_socket(host: str, port: int | None) -> socket.socket:
    """A listening-ready TCP socket on ``host``; port 0/None lets the OS pick a free one."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port or 0))
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            raise PortInUse(port or 0) from None
        raise
    sock.set_inheritable(False)
    return sock


def _exit_on_sigterm(signum: int, frame: object) -> None:
    # uvicorn re-raises SIGTERM after its graceful shutdown; turn it into a normal exit so
    # the finally blocks (server.json removal, lock release) run.
    raise SystemExit(0)


def run_server(
    config: Config,
    *,
    runtime: Runtime | None = None,
    on_ready: OnReady | None = None,
    stop_when: StopWhen | None = None,
) -> int:
    """Serve until interrupted or until ``stop_when`` returns. Returns the process exit code."""
    setup_logging(config.data_dir)
    sock = bind_socket(config.host, config.port)
    config = config.with_port(sock.getsockname()[1])
    # /api/health answers first; the app (adapters, runtime, routes) is built right behind it
    # (server/boot.py), so the process answers in about the time a bare Starlette app does.
    app = BootingApp(config, lambda: _build_app(config, runtime))
    server = _server(app)
    info = RunningServer(
        pid=os.getpid(), port=config.port or 0, url=f"http://{config.host}:{config.port}",
        token=config.token,
    )

    async def main() -> None:
        serving = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started:
            if serving.done():
                await serving  # startup failed: surface its error
                return
            await asyncio.sleep(0.005)
        write_server_file(config.data_dir, info)
        log.info("%s serving %s (data dir %s)", tag(pid=str(info.pid)), info.url, config.data_dir)
        if on_ready is not None:
            on_ready(info)
        watcher = asyncio.create_task(_stop_after(stop_when, info, server)) if stop_when else None
        failed = asyncio.create_task(_stop_if_boot_fails(app, server))
        try:
            await serving
        finally:
            failed.cancel()
            if watcher is not None:
                watcher.cancel()

    previous = signal.signal(signal.SIGTERM, _exit_on_sigterm)
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        remove_server_file(config.data_dir, pid=info.pid)
        sock.close()
        log.info("%s stopped", tag(pid=str(info.pid)))
        # The process ends next. Its heap (litellm alone is hundreds of thousands of objects)
        # would otherwise be traversed by the interpreter's final collections, seconds on a busy
        # machine; frozen objects are left out of them (memory is freed by the exit anyway).
        gc.freeze()
    if app.failure is not None:
        raise app.failure  # as if the build had failed before serving: the caller reports it
    return 0


def _build_app(config: Config, runtime: Runtime | None) -> Starlette:
    from studyhall.server.web import build_app  # in the boot thread, after the server answers

    return build_app(config, runtime)


async def _stop_if_boot_fails(app: BootingApp, server: Any) -> None:
    await app.booted()
    if app.failure is not None:
        server.should_exit = True


# A request still running once the runtime has stopped (an answer being written, say) gets
# this long before uvicorn cancels it.
GRACE_SECONDS = 0.5


def _server(app: BootingApp) -> Any:
    """A uvicorn server that stops the runtime as its shutdown begins."""
    import uvicorn  # here, not at module level: the CLI's other commands never pay for it
    from studyhall.server.connection_guard import server_config

    class StudyhallServer(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            # Before uvicorn waits for open responses: stopping the runtime ends the live
            # streams (activity, turns) that would otherwise hold it for the whole grace period.
            # The lifespan's own stop then finds it done (no runtime yet: the lifespan waits
            # for the build and stops what it started).
            if (runtime := app.runtime) is not None:
                from studyhall.server.runtime.runtime import stop

                await stop(runtime)
            await super().shutdown(sockets)

    # A header-read deadline and a cap on open connections (``connection_guard``): clients
    # that connect and never ask cannot use up the process's file descriptors.
    return StudyhallServer(server_config(
        app,
        # uvicorn annotates an int but hands it to asyncio.wait_for, which takes seconds as a
        # float.
        timeout_graceful_shutdown=GRACE_SECONDS,
    ))


async def _stop_after(stop_when: StopWhen, info: RunningServer, server: object) -> None:
    try:
        await stop_when(info)
    except Exception:
        log.exception("[window] the window supervisor failed; the server keeps running")
        return
    server.should_exit = True  # type: ignore[attr-defined]
