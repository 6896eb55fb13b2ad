"""Loads the agents' Markdown prompts shipped as package data (the core itself does no I/O)."""

from __future__ import annotations

from functools import cache
from importlib import resources

PACKAGE = "studyhall.core.agents"


@cache
def load_prompt(name: str) -> str:
    """The text of ``core/agents/prompts/<name>``; a missing file is a packaging bug."""
    if "/" in name or "\\" in name or name.startswith("."):
        raise ValueError(f"not a prompt file name: {name!r}")
    try:
        return resources.files(PACKAGE).joinpath("prompts", name).read_text(encoding="utf-8")
    except FileNotFoundError as e:
        raise RuntimeError(
            f"The prompt {name} is missing from the installed package; reinstall Studyhall."
        ) from e
