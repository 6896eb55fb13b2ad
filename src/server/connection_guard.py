"""The server's guard against clients that connect and never finish asking: a header-read timeout
and a cap on open connections, on top of uvicorn's h11 protocol.

uvicorn closes a kept-alive connection that stays idle after a response (``timeout_keep_alive``)
but has no deadline for a request's headers: a connection that sends nothing, or a few bytes, is
held for ever, and a thousand of them use up the process's file descriptors (every accept then
fails with EMFILE and a real request waits). Here a connection must have sent its request's
headers within ``HEADER_TIMEOUT`` of opening (or of its last response), and when more than
``MAX_CONNECTIONS`` are open the oldest one still waiting for headers is closed to make room,
so a request from the app's own window always gets in. A connection busy with a request (an
answer streaming, a long import call) is never closed by either rule.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger("studyhall.connections")

# A browser sends a request's headers in one packet right after connecting; ten seconds is far
# beyond any local client and short enough that idle sockets cannot pile up.
HEADER_TIMEOUT = 10.0


def _connection_cap(most: int = 200) -> int:
    """A quarter of the file descriptors this process may open, at most ``most``: the app's own
    window opens a handful of connections, the rest stay for files, models and the data folder."""
    try:
        import resource  # POSIX only
    except ImportError:
        return most
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return most if soft == resource.RLIM_INFINITY else max(16, min(most, soft // 4))


MAX_CONNECTIONS = _connection_cap()
# How many connections the event loop accepts at once (also the listen queue): bounds how far
# past the cap a burst gets before the cap is applied.
ACCEPT_BATCH = 100


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a header-read deadline and the connection cap."""

    header_timeout: float = HEADER_TIMEOUT
    max_connections: int = MAX_CONNECTIONS

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._header_timer: asyncio.TimerHandle | None = None
        self._waiting_since = self.loop.time()
        super().connection_made(transport)
        self._arm_header_timer()
        if len(self.connections) > self.max_connections:
            self._make_room()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_header_timer()
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.waiting_for_headers():
            self._waiting_since = self.loop.time()  # the next request's headers are due now
            self._arm_header_timer()

    def waiting_for_headers(self) -> bool:
        """No request in hand: the client has not (yet) sent all of one's headers."""
        return self.conn.their_state is h11.IDLE and not self.transport.is_closing()

    def _arm_header_timer(self) -> None:
        self._cancel_header_timer()
        self._header_timer = self.loop.call_later(self.header_timeout, self._headers_overdue)

    def _cancel_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_overdue(self) -> None:
        self._header_timer = None
        if self.waiting_for_headers():  # else a request arrived in time and is being served
            log.warning("[connections] closed a connection that sent no request within %.0f s",
                        self.header_timeout)
            self.transport.close()

    def _make_room(self) -> None:
        open_ = [c for c in self.connections
                 if isinstance(c, GuardedH11Protocol) and not c.transport.is_closing()]
        if len(open_) <= self.max_connections:
            return  # the extra ones are already closing
        waiting = [c for c in open_ if c.waiting_for_headers()]
        victim = min(waiting, key=lambda c: c._waiting_since) if waiting else self
        log.warning("[connections] over %d open connections: closed the oldest one still "
                    "waiting for its request", self.max_connections)
        victim.transport.close()


def guarded_protocol(header_timeout: float = HEADER_TIMEOUT,
                     max_connections: int = MAX_CONNECTIONS) -> type[GuardedH11Protocol]:
    """The protocol class with these limits (a test lowers them)."""
    return type("GuardedH11Protocol", (GuardedH11Protocol,),
                {"header_timeout": header_timeout, "max_connections": max_connections})


def server_config(app: Any, *, header_timeout: float = HEADER_TIMEOUT,
                  max_connections: int = MAX_CONNECTIONS, **options: Any) -> uvicorn.Config:
    """The uvicorn configuration the app is served with: the guarded protocol, accepts in
    batches of ``ACCEPT_BATCH``, no logging config of its own, no ``Server`` header."""
    return uvicorn.Config(
        app, http=guarded_protocol(header_timeout, max_connections), backlog=ACCEPT_BATCH,
        log_config=None, access_log=False, lifespan="on", server_header=False, **options)
