"""The base of every persisted shape: strict, immutable, and round-trippable through JSON."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Record(BaseModel):
    """Strict shape: unknown fields are an error, values are immutable once built."""

    # defer_build: a model's validator is built on its first use, not at import (start-up
    # imports every contract; tests/unit/test_startup_imports.py builds them all).
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, defer_build=True)
