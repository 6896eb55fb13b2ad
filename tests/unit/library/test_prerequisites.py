"""Prerequisite ancestors over ``follows`` edges (prerequisite -> dependent): everything a
concept builds on, nearest first, each once, cycles and unknown concepts included."""

from __future__ import annotations

from studyhall.core.library.learner.prerequisites import PrerequisiteGraph

# counting -> addition -> multiplication -> powers; addition -> subtraction -> division;
# multiplication -> division
FOLLOWS = [
    ("counting", "addition"),
    ("addition", "multiplication"),
    ("multiplication", "powers"),
    ("addition", "subtraction"),
    ("subtraction", "division"),
    ("multiplication", "division"),
]


def test_ancestors_are_every_prerequisite_nearest_first_each_once():
    graph = PrerequisiteGraph(FOLLOWS)
    assert graph.ancestors("powers") == ("multiplication", "addition", "counting")
    # two routes to addition (through multiplication and through subtraction): listed once,
    # at its nearest distance; ties at one distance go by id
    assert graph.ancestors("division") == ("multiplication", "subtraction", "addition",
                                           "counting")


def test_a_concept_with_no_prerequisites_or_unknown_to_the_graph_has_none():
    graph = PrerequisiteGraph(FOLLOWS)
    assert graph.ancestors("counting") == ()
    assert graph.ancestors("calculus") == ()
    assert PrerequisiteGraph([]).ancestors("anything") == ()


def test_dependents_are_never_ancestors():
    assert "powers" not in PrerequisiteGraph(FOLLOWS).ancestors("multiplication")


def test_a_cycle_ends_the_walk_and_a_concept_is_not_its_own_ancestor():
    follows = [("a", "b"), ("b", "c"), ("c", "a"), ("x", "a")]
    assert PrerequisiteGraph(follows).ancestors("a") == ("c", "x", "b")
    assert PrerequisiteGraph([("b", "b")]).ancestors("b") == ()
