"""The sandbox adapter: generated demos and diagrams checked in headless Chromium, offline."""

from .chromium import ChromiumSandbox

__all__ = ["ChromiumSandbox"]
