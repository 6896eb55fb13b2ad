"""A session topic's identity: the node a session's findings hang under when no note topic is
like them enough (``extraction/finding_placement.py``). Its id comes from the session alone, so
the map can tell it is a topic (``learner/rollup.py``) from its evidence's source: the session."""

from __future__ import annotations

import hashlib

from studyhall.core.library.graph.view import SnapshotNode


def session_topic_id(session_id: str) -> str:
    """A session topic's node id, from the session alone: its title may be any other
    session's, or change. A different digest input than a text's, so it never meets one."""
    digest = hashlib.sha256(f"session-topic\x1f{session_id}".encode()).hexdigest()
    return f"n_{digest[:16]}"


def is_session_topic(node: SnapshotNode) -> bool:
    """Whether the node is the topic of a session it has evidence from."""
    return any(node.id == session_topic_id(source) for source in node.sources)
