"""The local search encoder's one-time set-up, at the app's first start rather than inside the
learner's first import.

The bundled MiniLM runs on ONNX Runtime from an int8 file exported once per data folder (about a
minute on a busy 2-core machine). Done on the first embed, it sat inside the first import's
"Reading for meaning · 0 of 1535" with nothing said. Here it starts with the app, in the
background, as a run the activity strip shows ("Preparing local search (one time)"); an import
that starts meanwhile waits for it on the encoder's own lock and then runs at full speed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from studyhall.core.ports.system import Clock

log = logging.getLogger("studyhall.embed")

SETUP_ID = "local-search-setup"
LABEL = "Preparing local search (one time, about a minute)"
Status = Literal["running", "done", "error"]


@dataclass
class SetupRun:
    started_at: datetime
    id: str = SETUP_ID
    status: Status = "running"
    error: str | None = None
    finished_at: datetime | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "run_id": self.id, "kind": "setup", "label": LABEL, "status": self.status,
            "usage": None, "error": self.error,
            "started_at": self.started_at.isoformat(),
            "finished_at": self.finished_at.isoformat() if self.finished_at else None,
        }


class EncoderSetup:
    """A run registry (``runs``/``get``/``abort``) of at most one run. ``prepare`` blocks until
    the encoder is ready (exporting it if needed); ``needed`` says whether there is anything to
    do. Both None or False: nothing is shown."""

    def __init__(self, *, prepare: Callable[[], None] | None, needed: Callable[[], bool],
                 clock: Clock) -> None:
        self._prepare = prepare
        self._needed = needed
        self._clock = clock
        self._run: SetupRun | None = None

    def start(self) -> SetupRun | None:
        """Start the set-up in the background if the encoder still needs it (call on the loop)."""
        if self._prepare is None or self._run is not None or not self._needed():
            return self._run
        run = SetupRun(started_at=self._clock.now())
        run.task = asyncio.create_task(self._work(run, self._prepare), name="prepare local search")
        self._run = run
        return run

    async def _work(self, run: SetupRun, prepare: Callable[[], None]) -> None:
        try:
            await asyncio.to_thread(prepare)
            run.status = "done"
        except asyncio.CancelledError:
            run.status, run.error = "error", "Stopped with the app; it runs again at the next start."
            raise
        except Exception as e:  # noqa: BLE001 - shown in the strip; the first embed says it again
            log.warning("[embed] preparing local search failed: %s", e)
            run.status, run.error = "error", str(e)
        finally:
            run.finished_at = self._clock.now()

    def runs(self) -> list[SetupRun]:
        return [self._run] if self._run is not None else []

    def get(self, run_id: str) -> SetupRun | None:
        return self._run if self._run is not None and run_id == SETUP_ID else None

    def abort(self, run_id: str) -> bool:
        return False  # the import that needs the encoder would only start it again
