"""The learner's own word is theirs alone: the port the tutor's learner tools answer through has
no way to append an assertion, and no tool offers an assertion's claims as a level or kind."""

from __future__ import annotations

import json

from studyhall.core.agents.learner_tools import TEACHER_TOOLS, LearnerToolsPort, learner_tools
from studyhall.core.contracts.learner import ASSERTION_KINDS, LEARNER_LEVELS
from studyhall.server.runtime.learner import Learner
from studyhall.server.runtime.learner.tool_answers import LearnerToolAnswers

from tests.support.tool_answers import FakeToolAnswers

WRITES = {"assert_about", "take_back"}  # the façade's assertion writers (the HTTP routes')


def test_the_tools_port_has_no_assertion_writer():
    members = {n for n in dir(LearnerToolsPort) if not n.startswith("_")}
    assert "observe" in members and not members & WRITES
    assert not {n for n in dir(LearnerToolAnswers) if not n.startswith("_")} & WRITES
    assert WRITES <= set(dir(Learner))  # they exist, on the learner's side only


def test_no_tool_spec_offers_an_assertion_claim():
    assert not set(ASSERTION_KINDS) & set(LEARNER_LEVELS)
    for tool in learner_tools(FakeToolAnswers(), TEACHER_TOOLS):
        spec = json.dumps(tool.spec.model_dump() if hasattr(tool.spec, "model_dump")
                          else tool.spec.__dict__, default=str)
        for claim in ASSERTION_KINDS:
            assert f'"{claim}"' not in spec, (tool.name, claim)
