"""One writer of the plan tree's JSON: the chat view and ``studyhall plan check`` print the same
shape; they differ only in how much of the subgraphs they show and whether statuses are added."""

from __future__ import annotations

from studyhall.core.classroom.plan_json import plan_json
from studyhall.core.classroom.plan_parser import parse_plan

PLAN = 'graph LR\nsubgraph s["Start"]\nA["Sets"]\nend\nA -->|then| B(("Maps"))\n'


def _plan():
    parsed = parse_plan(PLAN)
    assert parsed.plan is not None, parsed.errors
    return parsed.plan


def test_the_chat_view_names_a_nodes_subgraph_when_it_has_one_and_adds_statuses() -> None:
    shown = plan_json(_plan(), statuses={"A": "current"})
    assert shown == {
        "direction": "LR",
        "nodes": [
            {"id": "A", "label": "Sets", "shape": "rect", "group": "s", "status": "current"},
            {"id": "B", "label": "Maps", "shape": "circle", "status": "upcoming"},
        ],
        "edges": [{"from": "A", "to": "B", "label": "then", "kind": "arrow"}],
    }


def test_the_cli_shows_every_nodes_subgraph_and_the_groups_only_when_asked() -> None:
    plain = plan_json(_plan(), groups="none")
    assert [set(n) for n in plain["nodes"]] == [{"id", "label", "shape"}] * 2
    assert "groups" not in plain
    full = plan_json(_plan(), groups="all")
    assert [n["group"] for n in full["nodes"]] == ["s", None]
    assert full["groups"] == [{"id": "s", "title": "Start", "parent": None, "direction": None}]
    assert full["edges"] == plain["edges"]
