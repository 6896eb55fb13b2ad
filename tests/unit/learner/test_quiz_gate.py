"""Prerequisite gating (seed 000 §7): a hard question waits until every prerequisite — a graph
``follows`` predecessor, an earlier step of the approved plan — has mastery ≥ 0.7; the refusal
names what to teach first; this session's answers count at once, and only once."""

from __future__ import annotations

from studyhall.core.agents.quiz_gate import (
    QuizSubject,
    gate_problems,
    gated,
    hard_questions,
    node_score,
    prerequisites_of,
)
from studyhall.core.agents.tools import ToolContext, quiz_tool
from studyhall.core.classroom.plan_parser import parse_plan
from studyhall.core.classroom.quiz_answers import SessionAnswer
from studyhall.core.library.graph.snapshot import Ledgers, fold_snapshot
from studyhall.core.library.learner.evidence import LearnerEvidence
from studyhall.core.library.learner.model import LearnerModel
from studyhall.core.library.learner.queue import Limits

from tests.support.graph_events import cp, edge, prop, quiz
from tests.support.library_session import at

TREE = "A tree is a connected graph without cycles."
HEAP = "A heap is a complete binary tree with the heap property."
MODEL = LearnerModel(
    fold_snapshot(Ledgers(
        propositions=[prop("tree", text=TREE), prop("heap", text=HEAP)],
        edges=[edge("tree", "heap")],  # a tree comes before a heap
        quiz_events=[quiz("tree", "miss", 1)],  # ref "c/q1"
        checkpoints=[cp("r1")])),
    LearnerEvidence(), at(60), Limits())
PLAN = parse_plan("graph TD\n  A[Vertices and edges] --> B[Paths]\n  C[Colouring] --- B\n").plan


def answer(ref: str, verdict: str = "correct", *, node: str | None = None,
           step: str | None = None, minute: int = 10) -> SessionAnswer:
    return SessionAnswer(ref, verdict, at(minute), "easy", step, node)  # type: ignore[arg-type]


HEAP_QUIZ = QuizSubject("“A heap…” (node heap)", "heap")


def test_only_questions_marked_hard_are_gated():
    args = {"questions": [{"prompt": "a", "difficulty": "easy"}, {"prompt": "b"},
                          {"prompt": "c", "difficulty": "hard"}]}
    assert hard_questions(args) == [2]
    prereqs = prerequisites_of(HEAP_QUIZ, MODEL)
    assert gate_problems([], HEAP_QUIZ, prereqs) == []  # easy and medium always pass


def test_a_hard_question_on_a_node_waits_for_its_graph_prerequisite():
    prereqs = prerequisites_of(HEAP_QUIZ, MODEL)
    assert [(p.node_id, p.score) for p in prereqs] == [("tree", MODEL.score("tree").value)]
    problems = gate_problems([0], HEAP_QUIZ, prereqs)
    assert problems[0].startswith("questions[0] is hard, but “A heap…” (node heap) builds on")
    assert "mastery ≥ 0.7" in problems[0] and "easy or medium" in problems[0]
    assert problems[1] == f"teach “{TREE}” (node tree) first: its mastery is 0.24"
    # A concept with no prerequisites is never gated.
    assert prerequisites_of(QuizSubject("tree", "tree"), MODEL) == []


def test_this_sessions_answers_open_the_gate_at_once_and_count_once():
    taught = [answer("q9/q1", node="tree", minute=20), answer("q9/q2", node="tree", minute=21)]
    (tree,) = prerequisites_of(HEAP_QUIZ, MODEL, answers=taught)
    assert tree.ready and tree.score is not None and tree.score >= 0.7 > MODEL.score("tree").value
    assert gate_problems([0], HEAP_QUIZ, [tree]) == []
    # The graph already holds the answer c/q1: seen again in the transcript, it is not re-counted.
    assert node_score(MODEL, "tree", [answer("c/q1", "miss", node="tree")]) \
        == MODEL.score("tree").value
    # Answers about another concept change nothing here.
    (other,) = prerequisites_of(HEAP_QUIZ, MODEL, answers=[answer("q9/q1", node="heap")])
    assert other.score == MODEL.score("tree").value


def test_plan_order_gates_a_step_and_an_open_link_states_no_order():
    subject = QuizSubject("plan step B “Paths”", None, "B")
    (step_a,) = prerequisites_of(subject, MODEL, plan=PLAN, matches={"A": None})  # not C: ---
    assert (step_a.plan_node, step_a.score, step_a.node_id) == ("A", None, None)
    problems = gate_problems([0, 1], subject, [step_a])
    assert problems[0].startswith("questions[0] and questions[1] are hard, but plan step B")
    assert problems[1] == "teach plan step A “Vertices and edges” first: not tried yet"
    checked = [answer("q1/q1", step="A"), answer("q1/q2", step="A", minute=11)]
    (ready,) = prerequisites_of(subject, MODEL, plan=PLAN, answers=checked)
    assert ready.ready


def test_a_plan_step_that_stands_for_a_graph_node_is_scored_by_it():
    subject = QuizSubject("plan step B “Paths”", None, "B")
    (step_a,) = prerequisites_of(subject, MODEL, plan=PLAN, matches={"A": "tree"})
    assert step_a.node_id == "tree" and step_a.score == MODEL.score("tree").value
    assert step_a.name == f"plan step A “Vertices and edges”, i.e. “{TREE}” (node tree)"
    # Answers tagged with the step count for the node it stands for.
    tagged = [answer("q1/q1", step="A"), answer("q1/q2", step="A", minute=11)]
    (lifted,) = prerequisites_of(subject, MODEL, plan=PLAN, matches={"A": "tree"},
                                 answers=tagged)
    assert lifted.ready


def test_a_prerequisite_is_listed_once_when_graph_and_plan_both_name_it():
    subject = QuizSubject("heap", "heap", "B")
    prereqs = prerequisites_of(subject, MODEL, plan=PLAN, matches={"A": "tree"})
    assert [p.node_id for p in prereqs] == ["tree"]


async def test_the_gated_quiz_checks_its_arguments_before_the_gate():
    calls = []

    async def gate(args, ctx):
        calls.append(args)
        return ["teach X first"]

    tool = gated(quiz_tool(tagged=False), gate)
    ctx = ToolContext(chat_id="c", messages=())
    bad = await tool.check({"questions": [{"prompt": "?", "difficulty": "brutal"}]}, ctx)
    assert any("difficulty must be one of easy, medium, hard" in p for p in bad) and not calls
    good = {"questions": [{"prompt": "2+2?", "choices": ["4", "5"], "correct": [0],
                           "difficulty": "hard"}]}
    assert await tool.check(good, ctx) == ["teach X first"] and calls == [good]

