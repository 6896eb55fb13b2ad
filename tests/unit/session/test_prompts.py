"""The agents' prompts ship as package data and encode the pedagogy."""

from __future__ import annotations

import pytest
from studyhall.core.agents.labeler import PROMPT_NAME
from studyhall.core.agents.prober import PROBER
from studyhall.core.agents.teacher import TEACHER
from studyhall.server.runtime.classroom.prompts import load_prompt


def test_every_agent_prompt_loads() -> None:
    for name in (PROBER.prompt_name, TEACHER.prompt_name, PROMPT_NAME):
        assert len(load_prompt(name)) > 100


def test_prober_finds_floor_ceiling_and_goal_by_quiz() -> None:
    text = load_prompt(PROBER.prompt_name).lower()
    for idea in ("floor", "ceiling", "goal", "quiz", "probe_done", "i don't know", "adapt"):
        assert idea in text, idea


def test_teacher_guides_one_idea_at_a_time_and_checks_understanding() -> None:
    text = load_prompt(TEACHER.prompt_name).lower()
    for idea in ("plan_init", "one idea at a time", "guide rather than tell",
                 "check understanding", "adapt", "plan_node", "line n, col m"):
        assert idea in text, idea


def test_prompt_names_cannot_escape_the_prompt_folder() -> None:
    with pytest.raises(ValueError):
        load_prompt("../loop.py")
