"""Prerequisite gating end to end (real app, scripted teacher, no key): a hard question on a
concept whose prerequisite is below 0.7 comes back to the teacher as a tool error naming what
to teach first — the learner never sees it — while an easy one goes through; once the teacher
checks the prerequisite and the learner gets it right, the same hard question is allowed. The
same holds along the approved plan's order, a step standing for the graph node its label
matches."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from studyhall.server.app import build_services
from studyhall.server.config import load_config

from tests.support.graph_events import cp, edge, prop, quiz
from tests.support.jobs import PROBE
from tests.support.session_api import PORT, Api, scripted_app, write_script

TREE = "A tree is a connected graph without cycles."
HEAP = "A heap is a complete binary tree with the heap property."


def question(prompt: str, right: str, wrong: str, difficulty: str | None = None) -> dict:
    q: dict[str, Any] = {"prompt": prompt, "choices": [right, wrong], "correct": [0]}
    return {**q, "difficulty": difficulty} if difficulty else q


def call(cid: str, **args: Any) -> dict[str, Any]:
    return {"name": "quiz", "id": cid, "arguments": args}


HARD = [question("Why does a heap fit in an array?", "it is complete", "it is sorted", "hard")]
EASY = [question("Is a heap a tree?", "yes", "no", "easy")]
TREE_CHECK = [question("Does a tree have cycles?", "no", "yes", "medium"),
              question("Is a tree connected?", "yes", "no")]


def seeded(script: Path):
    """The learner once missed a question on trees (mastery 0.24); a tree comes before a heap."""
    services = build_services(load_config(port=PORT, script_path=script))
    graph = services.graph_store
    graph.append_propositions([prop("tree", text=TREE), prop("heap", text=HEAP)])
    graph.append_edges([edge("tree", "heap")])
    graph.append_quiz_events([quiz("tree", "miss", 1)])
    graph.append_checkpoint(cp("r1"))
    return dataclasses.replace(services)


async def answer_right(api: Api, chat_id: str, call_id: str, picks: list[str]):
    chat = await api.chat(chat_id)
    pending = next(p for p in chat["pending"] if p["tool_call_id"] == call_id)
    questions = pending["presented"]["questions"]
    choices = [[q["choices"].index(pick)] for q, pick in zip(questions, picks, strict=True)]
    return await api.answer(chat_id, call_id, {"choices": choices})


def results(turn) -> dict[str, dict[str, Any]]:
    return {r["tool_call_id"]: r for r in turn.of("tool-result")}


async def test_a_hard_question_waits_for_its_prerequisite_and_an_easy_one_goes(tmp_path: Path):
    script = write_script(tmp_path / "s.json", {
        "prober": [PROBE],
        "teacher": [
            {"text": "Straight to the deep end.", "tool_calls": [
                call("q_hard", node_id="heap", questions=HARD)]},
            {"text": "Let's warm up then.", "tool_calls": [
                call("q_easy", node_id="heap", questions=EASY)]},
            {"text": "First, trees.", "tool_calls": [
                call("q_tree", node_id="tree", questions=TREE_CHECK)]},
            {"text": "Now the hard one.", "tool_calls": [
                call("q_hard_again", node_id="heap", questions=HARD)]},
        ],
        "labeler": [{"text": "Heaps"}] * 3})
    async with scripted_app(script, seeded(script)) as (api, _):
        chat_id = await api.new_chat("heaps")
        turn = await api.say(chat_id, "Teach me heaps")
        refused = results(turn)["q_hard"]
        assert refused["state"] == "output-error"
        error = refused["error"]
        assert error.startswith("quiz was rejected and nothing was shown to the learner:")
        assert "questions[0] is hard, but “A heap is a complete binary tree" in error
        assert f"- teach “{TREE}” (node tree) first: its mastery is 0.24" in error
        # The easy question on the same concept went to the learner.
        assert turn.last[1]["pending"] == ["q_easy"]
        chat = await api.chat(chat_id)
        assert [p["tool_call_id"] for p in chat["pending"]] == ["q_easy"]

        turn = await answer_right(api, chat_id, "q_easy", ["yes"])
        assert turn.last[1]["pending"] == ["q_tree"]
        turn = await answer_right(api, chat_id, "q_tree", ["no", "yes"])
        # The prerequisite was just checked: its answers count before any extraction runs.
        assert turn.last[1]["pending"] == ["q_hard_again"]
        assert "q_hard_again" not in {r["tool_call_id"] for r in turn.of("tool-result")}


async def test_plan_order_gates_a_step_until_the_step_before_is_learnt(tmp_path: Path):
    plan = {"title": "Heaps", "mermaid": "graph TD\n  A[connected graph without cycles] --> "
                                        "B[complete binary tree]"}
    script = write_script(tmp_path / "s.json", {
        "prober": [PROBE],
        "teacher": [
            {"text": "Our plan.", "tool_calls": [
                {"name": "plan_init", "id": "plan", "arguments": plan}]},
            {"text": "Hard one on heaps.", "tool_calls": [
                call("q_b", plan_node="B", questions=HARD)]},
            {"text": "Trees first.", "tool_calls": [
                call("q_a", plan_node="A", questions=TREE_CHECK)]},
            {"text": "Now heaps.", "tool_calls": [call("q_b2", plan_node="B", questions=HARD)]},
        ],
        "labeler": [{"text": "Heaps"}] * 3})
    async with scripted_app(script, seeded(script)) as (api, _):
        chat_id = await api.new_chat("heaps")
        await api.say(chat_id, "Teach me heaps")
        turn = await api.answer(chat_id, "plan", {"approve": True})
        error = results(turn)["q_b"]["error"]
        # Each step's label matched its graph node, so the step before is scored by "tree".
        assert "plan step B “complete binary tree”, i.e. “A heap is" in error
        assert (f"- teach plan step A “connected graph without cycles”, i.e. “{TREE}” "
                "(node tree) first: its mastery is 0.24") in error
        assert turn.last[1]["pending"] == ["q_a"]
        turn = await answer_right(api, chat_id, "q_a", ["no", "yes"])
        assert turn.last[1]["pending"] == ["q_b2"]
