"""Today's steps on a scripted learner history: due reviews, the open session at its next plan
step, the next topic whose prerequisites are solid (ranked by links from what is known), a
misconception not yet corrected, import/ask when empty; the no-model variant and all done."""

from __future__ import annotations

from studyhall.core.contracts.learner import LearnerObserved, ReviewGraded
from studyhall.core.library.graph.snapshot import Ledgers, fold_snapshot
from studyhall.core.library.learner.evidence import LearnerEvidence
from studyhall.core.library.learner.model import LearnerModel
from studyhall.core.library.learner.queue import Limits
from studyhall.core.library.learner.today import MAX_STEPS, OpenSession, today

from tests.support.graph_events import cp, edge, obs, prop, quiz
from tests.support.library_session import at

MONTH = 60 * 24 * 30
NOTE = "src_graphs"  # the imported note that holds every topic below


def history(*, misconception: bool = True) -> Ledgers:
    """basics is solid; paths and trees build on it in a chain; lists is only linked to it;
    island is linked to nothing; mixup was seen misunderstood in a session."""
    return Ledgers(
        propositions=[prop("basics", text="Graph basics: vertices and edges."),
                      prop("paths", text="Shortest paths"), prop("trees", text="Spanning trees"),
                      prop("lists", text="Adjacency lists"), prop("island", text="Heaps"),
                      prop("mixup", text="Conditional probability P(A|B)")],
        edges=[edge("basics", "paths"), edge("paths", "trees"),
               edge("basics", "lists", "supports")],
        quiz_events=[quiz("basics", "correct", 1), quiz("basics", "correct", 2, call="c2"),
                     quiz("basics", "correct", 3, call="c3")],
        observations=[obs("mixup", "misconception", 5)] if misconception else [],
        checkpoints=[cp("r1")])


def model(ledgers: Ledgers, grades=(), observations=(), minute: int = MONTH) -> LearnerModel:
    return LearnerModel(fold_snapshot(ledgers), LearnerEvidence(grades, observations),
                        at(minute), Limits())


GRADED = [ReviewGraded(id="rev_1", node_id="basics", grade="good", at=at(10))]
SESSION = OpenSession("chat_graph", "Graph search", "teach", at(100), next_step="BFS",
                      step=3, steps=5)


def plan(m: LearnerModel, sessions=(SESSION,), *, has_model: bool = True, notes: bool = True):
    return today(m, list(sessions), note_of=lambda sources: NOTE if notes else None,
                 has_model=has_model, has_sessions=bool(sessions), has_notes=notes)


def test_the_steps_come_in_order_reviews_session_learn_misconception():
    out = plan(model(history(), GRADED)).json()
    assert out["state"] == "busy"
    assert [s["kind"] for s in out["steps"]] == ["review", "session", "learn", "misconception"]
    review, session, learn, wrong = out["steps"]
    # basics (graded a month ago) is due, mixup (studied, never graded) is new.
    assert (review["count"], review["new"], review["overdue"]) == (2, 1, 1)
    assert review["minutes"] == 2
    assert review["why"].startswith("2 cards due today (1 overdue, 1 new), about 2 min.")
    assert review["action"] == {"label": "Start reviewing", "href": "#/review"}
    assert session["title"] == "Continue “Graph search”"
    assert session["why"] == "Pick up at step 3 of 5: BFS."
    assert session["action"]["href"] == "#/session/chat_graph"
    # paths: its prerequisite is solid and it is linked to what is known; trees waits for it.
    assert learn["node_id"] == "paths" and learn["prerequisites"] == ["basics"]
    assert learn["title"] == "Learn “Shortest paths”"
    assert "prerequisites are solid" in learn["why"] and "Graph basics" in learn["why"]
    assert learn["action"]["session"] == {"topic": "Shortest paths", "node_id": "paths"}
    assert wrong["node_id"] == "mixup" and wrong["title"].startswith("Revisit “Conditional")
    assert "Mar 1" in wrong["why"]
    assert len(out["steps"]) <= MAX_STEPS


def test_learn_next_is_gated_by_prerequisites_and_ranked_by_links_from_what_is_known():
    # basics missed: paths (and trees after it) wait behind the gate; a topic without
    # prerequisites comes next.
    ledgers = history()
    shaky = Ledgers(propositions=ledgers.propositions, edges=ledgers.edges,
                    quiz_events=[quiz("basics", "miss", 1)], observations=ledgers.observations,
                    checkpoints=ledgers.checkpoints)
    learn = next(s for s in plan(model(shaky)).steps if s.kind == "learn")
    assert learn.extra["node_id"] not in {"paths", "trees"}
    # A link to a known topic outranks more links to unknown ones: lists (one link, to basics)
    # before hub (two links, to topics not yet learned).
    linked = Ledgers(
        propositions=[prop("basics"), prop("lists"), prop("hub"), prop("x"), prop("y")],
        edges=[edge("basics", "lists", "supports"), edge("hub", "x", "supports"),
               edge("hub", "y", "supports")],
        quiz_events=[quiz("basics", "correct", 1), quiz("basics", "correct", 2, call="c2"),
                     quiz("basics", "correct", 3, call="c3")],
        checkpoints=[cp("r1")])
    learn = next(s for s in plan(model(linked)).steps if s.kind == "learn")
    assert (learn.extra["node_id"], learn.extra["linked_known"]) == ("lists", 1)
    assert learn.why.startswith("Linked to what you already know: “Fact basics”")
    # Nothing known at all: the most linked topic is the starting point.
    fresh = Ledgers(propositions=linked.propositions, edges=linked.edges,
                    checkpoints=[cp("r1")])
    learn = next(s for s in plan(model(fresh)).steps if s.kind == "learn")
    assert learn.extra["node_id"] == "hub"
    assert learn.why == ("A good place to start: nothing comes before it, and it is linked more "
                         "than anything else you have not tried (2 links).")
    alone = Ledgers(propositions=[prop("solo")], checkpoints=[cp("r1")])
    learn = next(s for s in plan(model(alone)).steps if s.kind == "learn")
    assert learn.why == "A good place to start: nothing comes before it."


def test_without_a_model_learn_next_opens_the_note_and_its_quiz_me():
    out = plan(model(history(), GRADED), has_model=False).json()
    learn = next(s for s in out["steps"] if s["kind"] == "learn")
    assert learn["action"] == {"label": "Quiz me on the note",
                               "href": f"#/sources/{NOTE}?quiz=1"}
    assert "session" not in learn["action"]
    # A topic no imported note holds opens on the map instead.
    bare = plan(model(history(), GRADED), has_model=False, notes=False).json()
    learn = next(s for s in bare["steps"] if s["kind"] == "learn")
    assert learn["action"] == {"label": "Show it on the map", "href": "#/?node=paths"}
    assert bare["steps"][-1]["kind"] == "import"  # nothing imported: bring notes in


def test_a_corrected_misconception_is_not_revisited():
    corrected = [LearnerObserved(id="lob_1", node_id="mixup", level="corrected",
                                 note="explained P(A|B) vs P(B|A)", at=at(600))]
    kinds = [s.kind for s in plan(model(history(), GRADED, corrected)).steps]
    assert "misconception" not in kinds


def test_nothing_imported_and_no_session_is_the_empty_state():
    out = plan(model(Ledgers()), sessions=()).json()
    assert (out["state"], out["next_review"]) == ("empty", None)
    assert [(s["kind"], s["action"]["href"]) for s in out["steps"]] == [
        ("import", "#/sources"), ("ask", "#/ask")]


def test_all_done_when_nothing_is_due_open_or_left_to_learn():
    ledgers = Ledgers(propositions=[prop("basics")], edges=[],
                      quiz_events=[quiz("basics", "correct", 1)], checkpoints=[cp("r1")])
    grades = [ReviewGraded(id="rev_1", node_id="basics", grade="easy", at=at(10))]
    out = plan(model(ledgers, grades, minute=20), sessions=()).json()
    assert (out["state"], out["steps"]) == ("done", [])
    assert out["next_review"] > at(20).date().isoformat()  # basics comes back on a later day


def test_learn_next_puts_what_a_goal_names_first():
    """Issue 29 item 1: learn next is ranked by the learner's goals too. "Adjacency lists" is
    only linked to what is known and would come after "Shortest paths"; a goal whose next step
    names lists brings it forward, and the why says so."""
    from studyhall.core.library.learner.today import GoalStanding

    goal = GoalStanding("goal_1", "learn graph algorithms by March", ("chat_1",), 1, 4,
                        "Represent a graph as adjacency lists", 2)
    m = model(history(), GRADED)
    learn = next(s for s in today(m, [SESSION], note_of=lambda sources: NOTE, has_model=True,
                                  has_sessions=True, has_notes=True, goals=[goal]).steps
                 if s.kind == "learn")
    assert learn.extra["node_id"] == "lists"
    assert learn.why.startswith("On the way to your goal “learn graph algorithms by March”.")
    without = next(s for s in plan(m).steps if s.kind == "learn")
    assert without.extra["node_id"] == "paths"
    # How many goals there are travels with the steps (the page's line about goals).
    assert today(m, [SESSION], note_of=lambda sources: NOTE, has_model=True, has_sessions=True,
                 has_notes=True, goals=[goal]).json()["goals"] == 1
    assert plan(m).json()["goals"] == 0
