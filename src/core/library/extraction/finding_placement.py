"""Where a session's findings land: under the topic each is most about, or under the session's
own topic — never under another finding (issue 28 item 5).

A kept group of new findings that is not yet tied to the graph attaches to the neighbour its
members are most like, only when that likeness reaches a calibrated minimum: embedding cosine
when the embedder answers (``MIN_EMBEDDING_COSINE``), else a content-word score (at least
``MIN_SHARED_WORDS`` shared stems and their set cosine at least ``MIN_WORD_COSINE``), so a shared
stop word or one shared common word ties nothing. A group below it hangs under the session
topic: one per session, named for it, created on demand. Its node id is the session's
(``session_topic_id``), never its text: two sessions with one title get two topics, and a later
batch of the session lands on the same node whatever the session is called by then (the node
keeps the name it was first given). A topic made before that, keyed by its text, stays the
session's topic (``Session.legacy_topic``). Thresholds were chosen on the labelled pairs
of ``tests/unit/library/test_finding_placement_calibration.py``.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from studyhall.core.errors import StudyhallError
from studyhall.core.library.extraction.findings import (
    AuditorOutput,
    EdgeFinding,
    ExtractorOutput,
    NodeRef,
    PropositionFinding,
    Verdict,
)
from studyhall.core.library.extraction.merger import node_id_for
from studyhall.core.library.extraction.nearest import words
from studyhall.core.library.extraction.topic_anchoring import new_groups, supports
from studyhall.core.library.graph.session_topic import session_topic_id
from studyhall.core.ports.models import Embedder

log = logging.getLogger("studyhall.extraction")

MIN_SHARED_WORDS = 2
MIN_WORD_COSINE = 0.25
# MiniLM cosine on the labelled set (bench/finding_placement.py): belonging pairs 0.44-0.81,
# pairs apart 0.03-0.43 (ONNX int8, the app's default; torch: 0.43-0.80 and 0.03-0.45).
MIN_EMBEDDING_COSINE = 0.5
SESSION_TOPIC_KEY = "session-topic"
# Plural and -ing forms meet their stem ("links"/"linking", "plants"/"plant"); short words stay.
_SUFFIX = re.compile(r"(?<=\w{3})(?:ing|es|s)$")


@dataclass(frozen=True)
class Session:
    """The session a batch of findings came from: its chat id and its title (what its topic is
    called); ``names``, every name its topic may already have (its title arrived later)."""

    id: str
    title: str
    names: tuple[str, ...] = ()
    node_id: str | None = None  # the note a "Study this" session studies: its topic already
    legacy_topic: str | None = None  # its topic's node, made when topics were keyed by text

    @property
    def topic_id(self) -> str:
        """The node the session's own topic is (or will be)."""
        return self.legacy_topic or session_topic_id(self.id)


class TopicNode(Protocol):
    @property
    def text(self) -> str: ...
    @property
    def sources(self) -> Collection[str]: ...


def standing_session(session: Session, node: Callable[[str], TopicNode | None]) -> Session:
    """``session`` as its topic already stands in the graph (``node``: a node by id): called
    what the node was first called (a later title or rename makes no second topic), or, when
    topics were keyed by their text, that node kept as its topic (the session among its
    sources), so findings already under it stay and new ones join them."""
    own = node(session.topic_id)
    if own is not None:
        return replace(session, title=own.text)
    for name in session.names:
        legacy = node(node_id_for(name))
        if legacy is not None and session.id in legacy.sources:
            return replace(session, title=legacy.text, legacy_topic=node_id_for(name))
    return session


def stems(text: str) -> set[str]:
    return {_SUFFIX.sub("", w) if not w.endswith("ss") else w for w in words(text)}


def word_likeness(finding_text: str, topic_text: str) -> float:
    """The content-word score: the stem-set cosine, 0 below ``MIN_SHARED_WORDS`` shared."""
    a, b = stems(finding_text), stems(topic_text)
    shared = len(a & b)
    return shared / math.sqrt(len(a) * len(b)) if shared >= MIN_SHARED_WORDS else 0.0


def about(finding_text: str, topic_text: str) -> bool:
    """Whether a finding is about a topic enough to hang under it, by words alone."""
    return word_likeness(finding_text, topic_text) >= MIN_WORD_COSINE


class Likeness(Protocol):
    minimum: float  # the least score that attaches a finding to a topic

    async def scores(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """One score per (finding text, topic text) pair. Raises ``StudyhallError`` when it
        cannot judge (the caller falls back to words)."""
        ...


class WordLikeness:
    minimum = MIN_WORD_COSINE

    async def scores(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        return [word_likeness(a, b) for a, b in pairs]


class EmbeddingLikeness:
    minimum = MIN_EMBEDDING_COSINE

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder

    async def scores(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        texts = list(dict.fromkeys(t for pair in pairs for t in pair))
        if not texts:
            return []
        rows = await self._embedder.embed(texts)  # unit-length rows: the dot is the cosine
        vector = dict(zip(texts, rows, strict=True))
        return [float(sum(x * y for x, y in zip(vector[a], vector[b], strict=True)))
                for a, b in pairs]


async def best_topics(
    findings: ExtractorOutput,
    neighbours: Mapping[str, Sequence[NodeRef]],
    likeness: Sequence[Likeness],
) -> dict[str, NodeRef]:
    """Each finding's most-alike neighbour at or above the minimum (findings with none are
    left out), by the first of ``likeness`` that can judge."""
    pairs = [(p.key, p.text, ref) for p in findings.propositions
             for ref in neighbours.get(p.key, ())]
    if not pairs:
        return {}
    for judge in likeness:
        try:
            scores = await judge.scores([(text, ref.text) for _, text, ref in pairs])
        except StudyhallError as e:
            log.info("[extraction] %s could not judge findings (%s); using words",
                     type(judge).__name__, e)
            continue
        best: dict[str, tuple[float, NodeRef]] = {}
        for (key, _, ref), score in zip(pairs, scores, strict=True):
            if score >= judge.minimum and score > best.get(key, (-math.inf, ref))[0]:
                best[key] = (score, ref)
        return {key: ref for key, (_, ref) in best.items()}
    return {}


def place_findings(
    findings: ExtractorOutput,
    audit: AuditorOutput,
    best: Mapping[str, NodeRef],
    session: Session,
) -> tuple[ExtractorOutput, AuditorOutput]:
    """``findings`` with a ``supports`` edge from every floating group to the topic its first
    placed member is about (``best``), or to the session topic, which is then added (kept,
    evidenced by the first floating finding's first quote) — or is the note the session
    studies. Unchanged when nothing floats."""
    text_of = {p.key: p for p in findings.propositions}
    anchors: list[EdgeFinding] = []
    orphans: list[str] = []
    for members, grounded in new_groups(findings, audit):
        if grounded:
            continue
        placed = next(((m, best[m]) for m in members if m in best), None)
        if placed is None:
            orphans.append(members[0])
        else:
            anchors.append(supports(placed[0], placed[1].id))
    evidence = next((text_of[k].evidence[:1] for k in orphans if text_of[k].evidence), ())
    if orphans and session.node_id is not None:  # a studied note is the session's topic
        anchors += [supports(k, session.node_id) for k in orphans]
    elif orphans and evidence:
        topic = PropositionFinding(key=SESSION_TOPIC_KEY, text=session.title, evidence=evidence)
        anchors += [supports(k, topic.key) for k in orphans]
        findings = findings.model_copy(update={"propositions": (*findings.propositions, topic)})
        audit = audit.model_copy(update={"verdicts": (*audit.verdicts, Verdict(
            key=topic.key, keep=True, reason=f"the topic of the session {session.id}"))})
    if not anchors:
        return findings, audit
    return findings.model_copy(update={"edges": (*findings.edges, *anchors)}), audit
