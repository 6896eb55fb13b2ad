"""One headless Chromium kept warm for the sandbox: started on first use, shared by checks
(each gets its own isolated context), restarted if it crashed, closed when idle or on
shutdown. Starting Chromium costs seconds; a context costs milliseconds.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

from studyhall.core.errors import SandboxError

log = logging.getLogger(__name__)


def playwright_api() -> tuple[Any, type[Exception]]:
    """``(async_playwright, playwright Error)``, imported on first use (not at start-up)."""
    try:
        from playwright.async_api import Error, async_playwright
    except ImportError as e:
        raise SandboxError("The Playwright package is missing; reinstall Studyhall.") from e
    return async_playwright, Error


class WarmBrowser:
    def __init__(self, executable: Path, args: list[str], idle_seconds: float = 120.0) -> None:
        self._executable = executable
        self._args = args
        self._idle_seconds = idle_seconds
        self._driver: Any = None
        self._browser: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock: asyncio.Lock | None = None
        self._users = 0
        self._idle_task: asyncio.Task[None] | None = None

    async def acquire(self) -> Any:
        """The running browser (started if needed); pair with ``release``."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop:  # objects of another event loop cannot be used here
            self._driver = self._browser = None
            self._loop, self._lock, self._users = loop, asyncio.Lock(), 0
        assert self._lock is not None
        async with self._lock:
            if self._idle_task is not None:
                self._idle_task.cancel()
                self._idle_task = None
            if self._browser is None or not self._browser.is_connected():
                await self._start()
            self._users += 1
            return self._browser

    def release(self) -> None:
        self._users = max(0, self._users - 1)
        if self._users == 0 and self._idle_task is None and self._browser is not None:
            self._idle_task = asyncio.get_running_loop().create_task(self._close_when_idle())

    async def _start(self) -> None:
        await self._stop()
        async_playwright, _ = playwright_api()
        self._driver = await async_playwright().start()
        try:
            self._browser = await self._driver.chromium.launch(
                executable_path=str(self._executable), headless=True, args=self._args)
        except BaseException:
            await self._stop()
            raise
        log.info("sandbox browser started (%s)", self._executable)

    async def _close_when_idle(self) -> None:
        await asyncio.sleep(self._idle_seconds)
        assert self._lock is not None
        async with self._lock:
            if self._users == 0:
                await self._stop()
                self._idle_task = None

    async def _stop(self) -> None:
        browser, driver = self._browser, self._driver
        self._browser = self._driver = None
        try:
            if browser is not None:
                await browser.close()
        except Exception as e:  # noqa: BLE001 — a browser that already died is closed enough
            log.debug("closing the sandbox browser: %s", e)
        finally:
            if driver is not None:
                try:
                    await driver.stop()
                except Exception as e:  # noqa: BLE001 — as above
                    log.debug("stopping the sandbox driver: %s", e)

    async def aclose(self) -> None:
        if self._idle_task is not None:
            self._idle_task.cancel()
            self._idle_task = None
        if self._loop is asyncio.get_running_loop():
            await self._stop()
