"""A stand-in for a running Studyhall app that dies in the middle of a routed import.

Run as a child process: ``python -m tests.support.dying_app DATA_DIR MODE``. It records itself
in ``server.json`` (as the app does), answers ``/api/health`` and starts an import, then, when
the CLI first asks for the import's progress, the process exits in one of three ways:
``refused`` (gone before the question: connection refused), ``reset`` (the connection is reset
under the question), ``incomplete`` (half an answer, then gone).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import struct
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from studyhall.server.instance import RunningServer, write_server_file

TOKEN = "dying-app-token"


def serve(data_dir: Path, mode: str) -> None:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def _json(self, status: int, body: object) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            self.wfile.flush()

        def do_GET(self) -> None:
            if self.path == "/api/health":
                self._json(200, {"ok": True, "version": "dying"})
            elif mode == "reset":
                # Linger 0: closing sends RST, not FIN — the client's read is reset.
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                           struct.pack("ii", 1, 0))
                self.connection.close()
                os._exit(0)
            else:  # incomplete
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", "4096")
                self.end_headers()
                self.wfile.write(b'{"run_id": "imp')
                self.wfile.flush()
                os._exit(0)

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if mode == "refused":
                # Stop listening before answering: the client's next request must be refused,
                # not accepted by the kernel's backlog and then reset when the process exits.
                # shutdown() first: close() alone lets the socket listen on while the accept
                # loop's select() still holds it (up to its 0.5 s poll).
                with contextlib.suppress(OSError):
                    self.server.socket.shutdown(socket.SHUT_RDWR)
                self.server.socket.close()
            self._json(202, {"run_id": "import_dying", "status": "running"})
            if mode == "refused":
                # Hand the answer over whole before going: an exit with the connection still
                # open could reset it under the client's read (a reset, not a refusal).
                self.wfile.flush()
                self.connection.shutdown(socket.SHUT_WR)
                self.connection.settimeout(5)
                try:
                    while self.connection.recv(4096):
                        pass  # until the client has read the answer and closed its side
                except OSError:
                    pass
                os._exit(0)  # the next question finds no one listening

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    port = server.server_address[1]
    write_server_file(data_dir, RunningServer(pid=os.getpid(), port=port,
                                              url=f"http://127.0.0.1:{port}", token=TOKEN))
    print("ready", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    serve(Path(sys.argv[1]), sys.argv[2])
