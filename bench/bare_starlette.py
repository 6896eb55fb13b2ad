"""The baseline for ``bench/startup.py``: a minimal Starlette app with one ``/api/health`` route,
served by uvicorn the way Studyhall serves (a loopback socket bound first, ``uvicorn.Server``
with the same options), announcing its port in ``server.json`` in the data dir given as argv[1].
Nothing of Studyhall is imported: this is what any Starlette+uvicorn app costs to start here."""

from __future__ import annotations

import asyncio
import json
import socket
import sys
from pathlib import Path

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route


async def health(request: Request) -> JSONResponse:
    return JSONResponse({"ok": True})


def main() -> None:
    data = Path(sys.argv[1])
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    app = Starlette(routes=[Route("/api/health", health)])
    server = uvicorn.Server(uvicorn.Config(app, log_config=None, access_log=False,
                                           lifespan="on", server_header=False))

    async def serve() -> None:
        serving = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started:
            if serving.done():
                await serving
                return
            await asyncio.sleep(0.005)
        port = sock.getsockname()[1]
        (data / "server.json").write_text(json.dumps({"port": port, "token": "-"}))
        await serving

    asyncio.run(serve())


if __name__ == "__main__":
    main()
