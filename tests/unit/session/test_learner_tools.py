"""The learner tools' contract: every argument checked before anything is read or written,
problems phrased for the model, an observation only with the learner's own words."""

from __future__ import annotations

import pytest
from studyhall.core.agents.learner_tools import READ_TOOLS, TEACHER_TOOLS, learner_tools
from studyhall.core.agents.tools import ToolContext

from tests.support.records import message
from tests.support.tool_answers import FakeToolAnswers

CTX = ToolContext(chat_id="chat_1", messages=(message("m1", "I think a tree has no cycles"),))


def tools(answers: FakeToolAnswers, names=TEACHER_TOOLS):
    return {t.name: t for t in learner_tools(answers, names)}


async def test_the_prober_gets_only_the_tools_that_read():
    assert set(tools(FakeToolAnswers(), READ_TOOLS)) == {
        "learning_strengths", "concept_confidence", "explain_score", "search_history",
        "due_reviews"}
    assert all(t.kind == "server" for t in tools(FakeToolAnswers()).values())
    with pytest.raises(ValueError, match="no learner tool named grade_me"):
        learner_tools(FakeToolAnswers(), ["grade_me"])


@pytest.mark.parametrize("name, args, problem", [
    ("learning_strengths", {"limit": 0}, "limit must be a whole number from 1 to 20"),
    ("learning_strengths", {"topic": ""}, "topic must be a non-empty string"),
    ("concept_confidence", {}, "concept must be a non-empty string"),
    ("explain_score", {"node_id": "n_9"}, "node_id 'n_9' is not a node of the learner's"),
    ("search_history", {"query": "x" * 301}, "query is 301 characters; the limit is 300"),
    ("search_history", {"query": "heaps", "when": "today"}, "unknown argument(s): when"),
    ("due_reviews", {"limit": True}, "limit must be a whole number from 1 to 20"),
    ("search_material", {"query": "heaps", "limit": 9}, "from 1 to 8"),
])
async def test_bad_arguments_come_back_as_problems_and_nothing_is_asked(name, args, problem):
    answers = FakeToolAnswers()
    problems = await tools(answers)[name].check(args, CTX)
    assert any(problem in p for p in problems), problems
    assert answers.calls == []


async def test_good_arguments_reach_the_desk_normalised():
    answers = FakeToolAnswers()
    tool = tools(answers)["search_history"]
    args = {"query": "  binary   heap ", "limit": 3}
    assert await tool.check(args, CTX) == []
    outcome = await tool.run(args, CTX)
    assert outcome.output == {"asked": "history", "args": ["binary heap", 3]}
    assert (await tools(answers)["due_reviews"].run({}, CTX)).output["args"] == [None, 5]


async def test_an_observation_needs_a_known_node_a_level_and_the_learners_own_words():
    answers = FakeToolAnswers()
    observe = tools(answers)["record_observation"]
    good = {"node_id": "n_1", "level": "solid", "quote": "a tree has  no cycles",
            "note": "Said it unprompted."}
    assert await observe.check(good, CTX) == []
    assert (await observe.run(good, CTX)).output["args"] == [
        "n_1", "solid", "a tree has no cycles", "Said it unprompted."]
    made_up = await observe.check({**good, "quote": "a tree is a forest"}, CTX)
    assert made_up == [("quote must be the learner's own words in this session, copied verbatim "
                       "from one of their messages or typed answers")]
    assert "level must be one of solid, partial, confused, misconception, corrected" in \
        (await observe.check({**good, "level": "expert"}, CTX))[0]
    assert "not a node of the learner's knowledge graph" in \
        (await observe.check({**good, "node_id": "n_404"}, CTX))[0]
    assert await tools(FakeToolAnswers(repeat="already on record"))["record_observation"].check(
        good, CTX) == ["already on record"]
    assert [c[0] for c in answers.calls] == ["observe"]  # only the good one was recorded
