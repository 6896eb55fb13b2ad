"""What a node builds on and leads to: a ``supports`` edge points from the finer idea to the one it
hangs under, a ``follows`` edge from a prerequisite to what depends on it; each neighbour carries
the session it was learned in."""

from __future__ import annotations

from studyhall.adapters.fakes import InMemoryGraphStore
from studyhall.core.library.graph.links import node_links
from studyhall.core.library.graph.snapshot import graph_snapshot

from tests.support.records import checkpoint, edge, proposition


def test_supports_and_follows_read_in_their_own_directions():
    store = InMemoryGraphStore()
    store.append_propositions([
        proposition("topic", "Graph trees", source_id="note:trees.md", node_id="n_topic"),
        proposition("finding", "Trees have no cycles.", source_id="chat_a", node_id="n_finding"),
        proposition("prereq", "A cycle returns to its start.", source_id="chat_b", node_id="n_pre"),
        proposition("next", "Spanning trees.", source_id="note:trees.md", node_id="n_next")])
    supports = edge("e1", "n_finding", "n_topic").model_copy(update={"relation": "supports"})
    store.append_edges([supports, edge("e2", "n_pre", "n_finding"),
                        edge("e3", "n_topic", "n_next"), edge("e4", "n_topic", "n_gone"),
                        edge("e5", "n_topic", "n_topic")])
    store.append_checkpoint(checkpoint("run_1", propositions=4))
    snap = graph_snapshot(store)
    sessions = {"chat_a", "chat_b"}

    finding = node_links(snap, "n_finding", sessions)
    assert [(x.node.id, x.relation) for x in finding.builds_on] == [
        ("n_topic", "supports"), ("n_pre", "follows")]
    assert finding.leads_to == ()

    topic = node_links(snap, "n_topic", sessions)
    assert topic.builds_on == ()  # the self-loop and the edge to a missing node are skipped
    assert [(x.node.id, x.session) for x in topic.leads_to] == [
        ("n_finding", "chat_a"), ("n_next", None)]
