"""``Runtime``: every runner, scheduler and feed of one app, built together by the composition
root (``server/app.py: build_runtime``), and ``started(runtime)``: its start-up and shutdown,
the same for the server's lifespan and for a CLI command.

A part that needs a start-up step has ``async startup()``; one that must end something on
shutdown has ``async shutdown()``. ``started`` finds them by those methods, so a new part (a
system's façade, say) is one field here and one line in ``build_runtime``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, fields
from typing import Protocol, runtime_checkable

from studyhall.server.runtime.ask import AskDesk
from studyhall.server.runtime.classroom import Classroom
from studyhall.server.runtime.learner import Learner
from studyhall.server.runtime.library import Library
from studyhall.server.runtime.reactions import Reactions
from studyhall.server.runtime.role_capabilities import RoleCapabilities
from studyhall.server.runtime.supervisor import Supervisor
from studyhall.server.runtime.workbench import Workbench
from studyhall.server.services import Services

log = logging.getLogger("studyhall.server")


@runtime_checkable
class Starts(Protocol):
    async def startup(self) -> None: ...


@runtime_checkable
class Stops(Protocol):
    async def shutdown(self) -> None: ...


@dataclass(frozen=True)
class Runtime:
    """The app's parts, in start-up order (shutdown stops them in reverse)."""

    services: Services
    supervisor: Supervisor  # owns every background task
    reactions: Reactions  # who reacts to which event: the one table, declared in server/app.py
    classroom: Classroom  # Classroom: chats and their turns
    # Library: imports, sessions into the graph, the graph's reads and search, the sources
    # shelf and the reader, Quiz me
    library: Library
    # Workbench: jobs, artifacts, the activity feed (start-up: recovery, then the keeps a crash
    # cut; shutdown: the activity streams end)
    workbench: Workbench
    learner: Learner  # Learner: review queue, grades, mastery, stats, exports, tutor's tools
    ask: AskDesk  # Ask: grounded questions over imported material, its history, its retriever
    capabilities: RoleCapabilities  # what each role's model can do (probed, cached)
    # Set once shutdown has begun: ``stop`` runs once, whoever calls it first.
    stopping: asyncio.Event = field(default_factory=asyncio.Event, compare=False, repr=False)

    def parts(self) -> list[object]:
        return [getattr(self, f.name) for f in fields(self) if f.name not in ("services", "stopping")]


@asynccontextmanager
async def started(runtime: Runtime, *, resume: bool = True) -> AsyncIterator[Runtime]:
    """Run the start-up steps (the adapters' hooks, then each part's ``startup``), and on the
    way out stop everything (``stop``).

    ``resume=False`` skips the parts' ``startup``, which resumes the app's own background work
    (jobs a stop interrupted are run and delivered): a CLI command does its one thing and may
    run beside the app, which must stay the only process delivering to its sessions.
    """
    try:
        for hook in runtime.services.on_startup:
            await hook()
        for part in runtime.parts() if resume else ():
            if isinstance(part, Starts):
                await part.startup()
        yield runtime
    finally:
        await stop(runtime)  # also when a start-up step failed: what did start is stopped


async def stop(runtime: Runtime) -> None:
    """Stop the app, once (later calls return at once): each part's ``shutdown`` (feeds end
    their streams), then every background task is cancelled and awaited within the supervisor's bound
    (a turn saves what was shown, a job is queued again, a run writes nothing more), then the
    adapters' shutdown hooks (the sandbox browser closes)."""
    if runtime.stopping.is_set():
        return
    runtime.stopping.set()
    for part in reversed(runtime.parts()):
        if isinstance(part, Stops):
            await part.shutdown()
    await runtime.supervisor.aclose()
    for hook in reversed(runtime.services.on_shutdown):
        try:
            await hook()
        except Exception:  # one adapter failing to close must not keep the others open
            log.exception("a shutdown step failed")
