"""``StartupWork``: a start-up step run in a thread of its own, so a probe that hangs (a keyring
behind a dead D-Bus waits ~25 s) never holds the start — and joined on shutdown, so it is never
still running when the interpreter exits. (A daemon thread still inside native code at exit is
torn down by ``pthread_exit``; a Rust or C++ frame that catches that unwind aborts the process
with "FATAL: exception not rethrown", rc −6, after the command has printed its result.)
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable

JOIN_S = 30.0  # the longest a shutdown waits for it (a hung keyring gives up after ~25 s)

log = logging.getLogger("studyhall.server")


class StartupWork:
    def __init__(self, work: Callable[[], object], name: str = "start-up work") -> None:
        self._work = work
        self._name = name
        self._thread: threading.Thread | None = None

    async def start(self) -> None:
        """Start the work and return at once (a start-up hook)."""
        self._thread = threading.Thread(target=self._work, name=self._name, daemon=True)
        self._thread.start()

    async def aclose(self) -> None:
        """Wait for the work to end, within ``JOIN_S`` (a shutdown hook)."""
        thread = self._thread
        if thread is None or not thread.is_alive():
            return
        await asyncio.to_thread(thread.join, JOIN_S)
        if thread.is_alive():
            log.warning("%s is still running after %.0f s; exiting without it", self._name,
                        JOIN_S)
