"""The base of the routes' request and response shapes: validators built on first use."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class BodyModel(BaseModel):
    # defer_build: a shape's validator is built when its route is first called, not at import
    # (start-up would otherwise pay a few milliseconds for each of some thirty shapes).
    model_config = ConfigDict(defer_build=True)
