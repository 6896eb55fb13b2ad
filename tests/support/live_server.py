"""A real Studyhall server (uvicorn on a loopback socket, in a thread) for browser tests.

Built exactly as the app builds itself (``build_services`` + ``build_runtime`` +
``build_app`` with ``STUDYHALL_SCRIPT`` scripted models and its own data dir); a test may
replace a port of the services first (e.g. a model that answers the extractor from what it was
shown): ``prepare`` returns the services to build on.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uvicorn
from studyhall.server.app import build_runtime, build_services
from studyhall.server.config import load_config
from studyhall.server.serve import bind_socket
from studyhall.server.services import Services
from studyhall.server.web import build_app

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]
SCREENSHOTS = Path(__file__).resolve().parents[1] / "browser" / "screenshots"


@dataclass
class LiveServer:
    url: str
    token: str
    services: Services
    data_dir: Path
    _server: uvicorn.Server
    _thread: threading.Thread
    _loop: asyncio.AbstractEventLoop | None = None

    @property
    def launch_url(self) -> str:
        """What the window opens: no route, so it picks its first screen (Today or Home)."""
        return f"{self.url}/?token={self.token}"

    @property
    def home_url(self) -> str:
        """The launch straight onto Home, whatever Today has to offer (the graph's tests)."""
        return f"{self.launch_url}#/"

    def call(self, coro_fn: Callable[[], Any], timeout: float = 30) -> Any:
        """Run a coroutine on the server's own event loop (the runtime objects live there)."""
        assert self._loop is not None
        return asyncio.run_coroutine_threadsafe(coro_fn(), self._loop).result(timeout)

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=15)


def start_server(data_dir: Path, script: dict[str, Any] | None = None,
                 prepare: Callable[[Services], Services] | None = None) -> LiveServer:
    data_dir.mkdir(parents=True, exist_ok=True)
    script_path = None
    if script is not None:
        script_path = data_dir.parent / f"{data_dir.name}-script.json"
        script_path.write_text(json.dumps(script))
    sock = bind_socket("127.0.0.1", None)
    config = load_config(data_dir=data_dir, port=sock.getsockname()[1], script_path=script_path,
                         testing=True)
    services = build_services(config)
    if prepare is not None:
        services = prepare(services)
    app = build_app(config, build_runtime(services))
    server = uvicorn.Server(uvicorn.Config(app, log_config=None, access_log=False, lifespan="on",
                                           timeout_graceful_shutdown=2))
    holder: dict[str, asyncio.AbstractEventLoop] = {}

    def run() -> None:
        loop = asyncio.new_event_loop()
        holder["loop"] = loop
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(server.serve(sockets=[sock]))
        finally:
            loop.close()
            sock.close()

    thread = threading.Thread(target=run, name="studyhall-test-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise AssertionError("the test server did not start")
        time.sleep(0.01)
    live = LiveServer(url=f"http://127.0.0.1:{config.port}", token=config.token,
                      services=services, data_dir=data_dir, _server=server, _thread=thread)
    live._loop = holder["loop"]
    return live
