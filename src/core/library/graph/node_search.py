"""Search over graph nodes: semantic (cosine over node vectors) fused with text matching.

Text matching is the fallback when there are no vectors (no embedder, nothing embedded yet)
and a boost when there are: a node that contains the query literally ranks first, so a search
for an exact phrase never loses to a vague neighbour. A node's content — the evidence quoted on
it, e.g. a note section's sentences on its topic — matches too, just below its own name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from studyhall.core.contracts.search import VectorLike
from studyhall.core.library.extraction.nearest import words
from studyhall.core.library.graph.outline import CurrentSections, section_gone
from studyhall.core.library.graph.view import SnapshotNode

MIN_SEMANTIC = 0.25  # below this cosine a neighbour is noise for MiniLM-sized models
CONTENT_WEIGHT = 0.9  # a match in a node's evidence ranks below the same match in its name


@dataclass(frozen=True)
class SearchHit:
    node_id: str
    text: str
    score: float
    match: Literal["semantic", "text", "both"]


def text_score(query: str, text: str) -> float:
    """1.0 for the whole query inside the text; otherwise the share of query words present,
    scaled below any literal hit."""
    q = " ".join(query.split()).casefold()
    t = " ".join(text.split()).casefold()
    if not q:
        return 0.0
    if q in t:
        return 1.0
    wanted = words(query)
    if not wanted:
        return 0.0
    have = words(text)
    return 0.8 * len(wanted & have) / len(wanted)


def search_nodes(
    query: str,
    nodes: Sequence[tuple[str, str]],
    *,
    query_vector: VectorLike | None = None,
    vectors: Mapping[str, VectorLike] | None = None,
    content: Mapping[str, str] | None = None,
    limit: int = 20,
) -> list[SearchHit]:
    """Rank ``(node_id, text)`` pairs for ``query``; best first, ties by id. ``content``: a
    node's evidence text, matched too (weighed by ``CONTENT_WEIGHT``)."""
    scores: dict[str, tuple[float, str]] = {}
    body = content or {}
    for node_id, text in nodes:
        s = text_score(query, text)
        more = body.get(node_id)
        if more and s < 1.0:
            s = max(s, CONTENT_WEIGHT * text_score(query, more))
        if s > 0:
            scores[node_id] = (s, "text")
    if query_vector is not None and vectors:
        known = [(node_id, vectors[node_id]) for node_id, _ in nodes if node_id in vectors]
        if known:
            import numpy as np  # here, not at module level: the app's start-up imports this

            q = np.asarray(query_vector, dtype=np.float32)
            q /= max(float(np.linalg.norm(q)), 1e-12)
            matrix = np.asarray([v for _, v in known], dtype=np.float32)
            matrix /= np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)
            sims = matrix @ q
            for (node_id, _), sim in zip(known, sims.tolist()):
                if sim < MIN_SEMANTIC:
                    continue
                prior = scores.get(node_id)
                if prior is None:
                    scores[node_id] = (sim, "semantic")
                else:
                    # Literal matches keep their lead; semantic similarity breaks their ties.
                    scores[node_id] = (max(prior[0], sim) + 0.01 * sim, "both")
    texts = dict(nodes)
    ranked = sorted(scores.items(), key=lambda item: (-item[1][0], item[0]))[:limit]
    return [
        SearchHit(node_id, texts[node_id], round(score, 4), match)  # type: ignore[arg-type]
        for node_id, (score, match) in ranked
    ]


def node_contents(nodes: Iterable[SnapshotNode], current: CurrentSections | None = None,
                  ) -> dict[str, str]:
    """Each snapshot node's evidence quotes as one text, for ``search_nodes(content=...)`` —
    not those of a section its note no longer has (``current``: the notes' sections now), so a
    search does not find a note by a heading it dropped."""
    now = current or {}
    return {n.id: " ".join(quote for source_id, message_id, quote, *_ in n.rows()[0]
                           if not section_gone(source_id, message_id, now))
            for n in nodes}
