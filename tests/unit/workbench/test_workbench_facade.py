"""The Workbench is the workbench's one door: its routes and ``studyhall make`` get only it, the
runtime holds it in place of its parts, and ``started`` still runs the parts' start-up (jobs
recovered before their artifacts are caught up) and shutdown (the activity streams end)."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from dataclasses import fields
from pathlib import Path
from typing import get_type_hints

import pytest
from studyhall.desktop.commands import make
from studyhall.server.app import build_runtime, build_services
from studyhall.server.config import load_config
from studyhall.server.http import activity, artifacts, demo_frames
from studyhall.server.runtime.runtime import Runtime, started
from studyhall.server.runtime.workbench import Workbench
from studyhall.server.runtime.workbench.activity import ActivityFeed
from studyhall.server.runtime.workbench.artifacts import ArtifactDesk
from studyhall.server.runtime.workbench.jobs import JobRunner


@pytest.mark.parametrize("routes", [artifacts.routes, activity.routes, demo_frames.routes])
def test_the_workbench_routes_take_only_the_workbench(routes: object) -> None:
    hints = get_type_hints(routes)
    hints.pop("return")
    assert hints == {"workbench": Workbench}


def test_make_asks_the_workbench_not_its_parts() -> None:
    source = inspect.getsource(make)
    assert "runtime.workbench" in source
    for reach in ("runtime.services", "runtime.jobs", "runtime.supervisor", "runtime.artifacts",
                  "job_store"):
        assert reach not in source, reach


def test_the_runtime_holds_the_workbench_in_place_of_its_parts() -> None:
    names = {f.name for f in fields(Runtime)}
    assert "workbench" in names
    assert not names & {"jobs", "artifacts", "activity"}


async def test_started_runs_the_parts_startup_in_order_and_their_shutdown(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    steps: list[str] = []

    def records(step: str) -> Callable[[object], Awaitable[None]]:
        async def hook(self: object) -> None:
            steps.append(step)
        return hook

    monkeypatch.setattr(JobRunner, "startup", records("jobs recovered"))
    monkeypatch.setattr(ArtifactDesk, "startup", records("artifacts caught up"))
    monkeypatch.setattr(ActivityFeed, "shutdown", records("activity streams ended"))
    runtime = build_runtime(build_services(load_config(data_dir=tmp_path)))
    async with started(runtime):
        assert steps == ["jobs recovered", "artifacts caught up"]
    assert steps == ["jobs recovered", "artifacts caught up", "activity streams ended"]
