"""The sandbox adapter: generated demos and diagrams checked in headless Chromium, offline."""

from studyhall.adapters.sandbox.chromium import ChromiumSandbox

__all__ = ["ChromiumSandbox"]
