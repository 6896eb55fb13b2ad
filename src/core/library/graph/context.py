"""Graph context: what the learner's graph already holds about a session's topic.

At session start the topic is embedded; the propositions nearest to it (top-K, under a token
budget) become a one-shot steer for the teacher. Selection is pure: vectors in, nodes out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from studyhall.core.contracts.search import VectorLike
from studyhall.core.library.extraction.tokens import estimate_text_tokens

TOP_K = 12
TOKEN_BUDGET = 600
MIN_SIMILARITY = 0.3


@dataclass(frozen=True)
class ContextNode:
    node_id: str
    text: str
    similarity: float
    state: str | None = None  # the node's understanding state, when known


def select_context(
    topic_vector: VectorLike,
    nodes: Sequence[tuple[str, str, str | None]],
    vectors: Mapping[str, VectorLike],
    *,
    k: int = TOP_K,
    token_budget: int = TOKEN_BUDGET,
    min_similarity: float = MIN_SIMILARITY,
) -> list[ContextNode]:
    """``nodes`` are ``(id, text, state)``; the most similar first, while they fit the budget
    (a node that does not fit is skipped, a shorter one after it may still fit)."""
    known = [(node_id, text, state) for node_id, text, state in nodes if node_id in vectors]
    if not known:
        return []
    import numpy as np  # here, not at module level: the app's start-up imports this

    q = np.asarray(topic_vector, dtype=np.float32)
    q /= max(float(np.linalg.norm(q)), 1e-12)
    matrix = np.asarray([vectors[node_id] for node_id, _, _ in known], dtype=np.float32)
    matrix /= np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)
    sims = (matrix @ q).tolist()
    ranked = sorted(zip(known, sims), key=lambda item: (-item[1], item[0][0]))
    chosen: list[ContextNode] = []
    used = 0
    for (node_id, text, state), sim in ranked:
        if sim < min_similarity or len(chosen) >= k:
            break
        cost = estimate_text_tokens(text) + 2
        if used + cost > token_budget:
            continue
        used += cost
        chosen.append(ContextNode(node_id, text, round(sim, 4), state))
    return chosen


def render_context(topic: str, chosen: Sequence[ContextNode], after: Sequence[str] = ()) -> str:
    """The steer's model-facing text; ``after``: lines that follow the propositions (the
    learner's weak and due concepts near the topic)."""
    intro = (
        f"Context from the learner's knowledge graph for this session's topic ({topic}). "
        "These are propositions the learner has met before, nearest to the topic first, with "
        "what the graph knows of their understanding. Use them to pitch the session; do not "
        "read them out."
    )
    lines = [intro]
    for node in chosen:
        state = f" [{node.state}]" if node.state else ""
        lines.append(f"- {node.text}{state}")
    lines.extend(after)
    return "\n".join(lines)
