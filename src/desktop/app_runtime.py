"""The CLI's way into the app: the services and runtime the server builds, run inside the same
``started`` (stored keys known to the log redactor first; on the way out every background task
stopped at a safe point and the sandbox closed), without resuming the app's background work.

Imported by command handlers only (never at ``studyhall`` start-up): it builds the whole app.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from studyhall.server.app import build_runtime, build_services
from studyhall.server.config import Config, load_config
from studyhall.server.runtime.runtime import Runtime, started


@asynccontextmanager
async def app_runtime(config: Config | None = None) -> AsyncIterator[Runtime]:
    """The app's runtime for one command, started; stopped when the block ends."""
    runtime = build_runtime(build_services(config or load_config()))
    async with started(runtime, resume=False):
        yield runtime
