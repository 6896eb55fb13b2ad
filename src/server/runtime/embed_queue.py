"""Embeds new node texts in the background while an import goes on merging notes.

The encoder runs in a worker thread (torch releases the GIL), so parsing and merging the next
notes overlaps with encoding the last ones. Embeddings are derived data: a failure stops the
queue with a log line, and the upkeep after the import embeds whatever is still missing.
"""

from __future__ import annotations

import asyncio
import logging

from .graph_upkeep import GraphUpkeep

log = logging.getLogger("studyhall.imports")
COALESCE = 256  # texts per encoder call at most, when several small batches wait


class EmbedQueue:
    def __init__(self, upkeep: GraphUpkeep) -> None:
        self._cache = upkeep.cache()
        self._queue: asyncio.Queue[list[str] | None] = asyncio.Queue()
        self._task = asyncio.get_running_loop().create_task(self._work()) if self._cache else None
        self.error: str | None = None

    def put(self, texts: list[str]) -> None:
        if self._task is not None and self.error is None and texts:
            self._queue.put_nowait(texts)

    async def _work(self) -> None:
        assert self._cache is not None
        import os
        if os.environ.get("EXP_DEFER"):
            while not getattr(self, "_closing", False):
                await asyncio.sleep(0.05)
        while (texts := await self._queue.get()) is not None:
            batch = list(texts)
            while not self._queue.empty() and len(batch) < COALESCE:
                more = self._queue.get_nowait()
                if more is None:
                    self._queue.put_nowait(None)
                    break
                batch.extend(more)
            try:
                await self._cache.ensure(batch)
            except Exception as e:  # noqa: BLE001 - derived data; the upkeep retries it
                self.error = str(e)
                log.warning("[import] background embedding stopped: %s", e)
                return

    async def close(self) -> None:
        """Wait for the queued texts to be embedded."""
        if self._task is not None:
            self._closing = True
            self._queue.put_nowait(None)
            await self._task

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()
