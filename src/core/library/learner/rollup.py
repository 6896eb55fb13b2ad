"""Mastery rolls up: a topic's state from its own evidence and its ideas' (docs/learner.md).

A *topic* is a source's own node — a note's (its title line, "# Title", quoted from the note's
first view ``<source>#``) or an Anki deck level's (``<source>#deck/N``), or a session's own
(``graph/session_topic.py``: what a session taught with no note). Its *ideas* are the other
nodes with a ``supports`` edge to it: propositions a model distilled from the note, findings a
session anchored there. A link between two notes joins two topics: neither is an
idea.

The rule, fair to a learner: an idea not tried yet, or a topic's own evidence not tried yet,
never pulls a topic down.
- shaky when its own evidence or any tried idea is shaky;
- else its own state when that is a corrected misconception (the topic's own story);
- else solid when it, or any of its ideas, was tried at all;
- else not tried.
A node's own ``state`` (and ``GET /api/mastery``) is never changed: the rolled-up state is
carried beside it (the map's ``topic_states``, the dock's ``mastery_rollup``). An idea tied to
several topics belongs, on the map, to one of them (``idea_topics``: the map's ``topic``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from studyhall.core.library.graph.session_topic import is_session_topic
from studyhall.core.library.graph.view import GraphSnapshot, SnapshotEdge, SnapshotNode

SOLID, SHAKY, NOT_TRIED, CORRECTED = "solid", "shaky", "not-tried", "corrected-misconception"


@dataclass(frozen=True)
class TopicMastery:
    state: str  # rolled up
    own: str  # the node's own state
    ideas: int  # ideas that belong to it
    tried: int  # of those, tried
    solid: int  # of those, solid (or a corrected misconception)
    shaky: int  # of those, shaky


def is_topic(node: SnapshotNode) -> bool:
    """Whether the node is a topic: a source's own (it quotes a source's first view, a note's
    title, or a deck level) or a session's (its findings that no note topic was like)."""
    if is_session_topic(node):
        return True
    for source_id, message_id, quote, *_ in node.rows()[0]:
        if message_id == source_id + "#" and quote.startswith("# "):  # the title line
            return True
        if message_id.startswith(source_id + "#deck/"):
            return True
    return False


def roll_up(own: str, ideas: Iterable[str]) -> TopicMastery:
    """A topic's state from its own state and its ideas' states (the rule above)."""
    states = list(ideas)
    tried = [s for s in states if s != NOT_TRIED]
    shaky = sum(s == SHAKY for s in tried)
    solid = sum(s in (SOLID, CORRECTED) for s in tried)
    if own == SHAKY or shaky:
        state = SHAKY
    elif own == CORRECTED:
        state = CORRECTED
    elif own != NOT_TRIED or tried:
        state = SOLID
    else:
        state = NOT_TRIED
    return TopicMastery(state, own, len(states), len(tried), solid, shaky)


Tie = tuple[SnapshotNode, SnapshotNode, SnapshotEdge]  # an idea, its topic, the edge between


def ties(snapshot: GraphSnapshot, edges: Iterable[SnapshotEdge] | None = None) -> list[Tie]:
    """Every idea's tie to a topic: a ``supports`` edge from a node that is no topic into one.
    ``edges``: only these (one node's, for its detail), else all the snapshot's."""
    return list(_ties(snapshot, edges))


def _ties(snapshot: GraphSnapshot, edges: Iterable[SnapshotEdge] | None) -> Iterator[Tie]:
    topics: dict[str, bool] = {}

    def topic(node: SnapshotNode) -> bool:
        known = topics.get(node.id)
        if known is None:
            known = topics[node.id] = is_topic(node)
        return known

    for edge in snapshot.edges if edges is None else edges:
        if edge.kind != "supports":
            continue
        idea, into = snapshot.node(edge.source), snapshot.node(edge.target)
        if idea is None or into is None or not topic(into) or topic(idea):
            continue
        yield idea, into, edge


def topic_masteries(snapshot: GraphSnapshot, edges: Iterable[SnapshotEdge] | None = None,
                    found: list[Tie] | None = None) -> dict[str, TopicMastery]:
    """Every topic that has ideas, with its rolled-up mastery (a topic with none is what its
    own evidence says; a node that is not a topic rolls nothing up). ``edges``: only these
    (one node's, for its detail), else all the snapshot's; ``found``: their ties, if known."""
    ideas: dict[str, dict[str, str]] = {}  # topic -> idea -> its state
    for idea, into, _ in _ties(snapshot, edges) if found is None else found:
        ideas.setdefault(into.id, {})[idea.id] = idea.state
    out: dict[str, TopicMastery] = {}
    for topic_id, states in ideas.items():
        node = snapshot.node(topic_id)
        assert node is not None  # found through the snapshot above
        out[topic_id] = roll_up(node.state, states.values())
    return out


def idea_topics(found: Iterable[Tie]) -> dict[str, str]:
    """Each idea's one topic (the map draws it as that topic's satellite), from its ``ties``:
    the topic its strongest ``supports`` edge goes to, the first such edge when they weigh
    the same."""
    best: dict[str, tuple[int, str]] = {}
    for idea, into, edge in found:
        held = best.get(idea.id)
        if held is None or edge.weight > held[0]:
            best[idea.id] = (edge.weight, into.id)
    return {idea_id: topic_id for idea_id, (_, topic_id) in best.items()}
