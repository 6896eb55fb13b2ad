"""The handler table in ``build_runtime`` is the only wiring between the runtime's parts: each
event has exactly the reactions the table names, and no part keeps a hook list or an ``on_*``
slot that something could plug into after construction."""

from __future__ import annotations

from pathlib import Path

import pytest
from studyhall.server.app import build_runtime, build_services
from studyhall.server.config import load_config
from studyhall.server.runtime.reactions import (
    EVENTS,
    GraphMerged,
    JobChanged,
    JobFinished,
    PlanApproved,
    QuizGraded,
    TurnEnded,
    WakeWanted,
)
from studyhall.server.runtime.runtime import Runtime


@pytest.fixture
def runtime(tmp_path: Path) -> Runtime:
    return build_runtime(build_services(load_config(data_dir=tmp_path)))


def test_every_event_has_the_reactions_the_table_names(runtime: Runtime) -> None:
    r = runtime
    assert dict(r.reactions.table) == {
        TurnEnded: (r.library.turn_ended, r.workbench.on_turn_end),
        WakeWanted: (r.classroom.wake,),
        JobChanged: (r.workbench.job_changed,),
        JobFinished: (r.workbench.job_finished,),
        GraphMerged: (r.library.graph_merged,),
        QuizGraded: (r.learner.quiz_graded,),
        PlanApproved: (r.learner.plan_approved,),
    }
    assert set(r.reactions.table) == set(EVENTS)  # no event is published to nobody


def test_the_table_is_declared_once(runtime: Runtime) -> None:
    with pytest.raises(RuntimeError, match="declared once"):
        runtime.reactions.declare({})


def _runtime_objects(runtime: Runtime) -> list[object]:
    """Every object of a runtime class reachable from the parts (the after-turn seams, the
    importers, the board...)."""
    seen: dict[int, object] = {}
    todo: list[object] = list(runtime.parts())
    while todo:
        obj = todo.pop()
        if id(obj) in seen or not type(obj).__module__.startswith("studyhall.server.runtime"):
            continue
        seen[id(obj)] = obj
        todo.extend(getattr(obj, "__dict__", {}).values())
    return list(seen.values())


def _frozen(obj: object) -> bool:
    params = getattr(obj, "__dataclass_params__", None)
    return params is not None and params.frozen


def test_no_part_can_be_wired_after_construction(runtime: Runtime) -> None:
    objects = _runtime_objects(runtime)
    assert len(objects) > len(runtime.parts())  # the walk reached past the parts
    for obj in objects:
        name = type(obj).__name__
        for attr, value in vars(obj).items():
            public = attr.lstrip("_")
            assert public != "hooks" and not public.startswith("on_"), f"{name}.{attr}"
            if not attr.startswith("_") and not _frozen(obj):
                # A public, reassignable slot holds a part, never a list or a plain function
                # (which is what a hook plugged in later would be).
                assert not isinstance(value, list | dict | set), f"{name}.{attr}"
                assert not callable(value) or type(value).__module__.startswith(
                    "studyhall."), f"{name}.{attr} is a plain callable"
        for method in ("add_tools", "wrap_tool", "add_hook"):
            assert not hasattr(obj, method), f"{name}.{method}"
