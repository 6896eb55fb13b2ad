"""The sandbox that runs generated demos and renders diagrams with the network off."""

from __future__ import annotations

from typing import Protocol

from studyhall.core.contracts.sandbox import ImageRender, PageCheck


class Sandbox(Protocol):
    """Raises ``core.errors.SandboxError`` when the browser cannot run at all."""

    async def check_page(self, html: str) -> PageCheck: ...

    async def render_svg(self, svg: str) -> ImageRender: ...
