"""What an artifact made from a scope is written from: the scope's ideas as graph facts, their
evidence quotes and the scope's own text (a source's passages, a session's transcript) as
passages. Pure: the runtime reads the graph, the index and the chat through ports.

Every scope is bounded so a writer's prompt stays a prompt: the whole graph gives its most
central, best-evidenced ideas (and its label says how many of how many).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from studyhall.core.agents.grounding import GraphFact, Grounding, Passage, clip_passage
from studyhall.core.contracts.chat import Message, TextPart
from studyhall.core.contracts.search import Chunk
from studyhall.core.contracts.steers import steer_part
from studyhall.core.library.graph.topics import FAMILY_LIMIT
from studyhall.core.library.graph.view import GraphSnapshot, SnapshotNode

MAX_SCOPE_FACTS = FAMILY_LIMIT  # ideas a writer is given: at most a topic's whole family
MAX_SCOPE_PASSAGES = 14  # passages: evidence, a source's chunks, a transcript's stretches
QUOTES_PER_NODE = 3
CANDIDATES = 200  # the best-connected ideas whose evidence is weighed for "most central"
LABEL_CHARS = 120


@dataclass(frozen=True)
class ScopeMaterial:
    grounding: Grounding
    label: str

    @property
    def empty(self) -> bool:
        return not self.grounding.facts and not self.grounding.passages


def clip_label(text: str, limit: int = LABEL_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _evidence_count(node: SnapshotNode) -> int:
    return len(node.rows()[0])


def degrees(snapshot: GraphSnapshot) -> Counter[str]:
    count: Counter[str] = Counter()
    for edge in snapshot.edges:
        count[edge.source] += 1
        count[edge.target] += 1
    return count


def central_nodes(snapshot: GraphSnapshot, limit: int = MAX_SCOPE_FACTS,
                  among: Sequence[SnapshotNode] | None = None) -> list[SnapshotNode]:
    """The ideas (of the graph, or ``among`` some of its nodes) most connected (edges) and best
    evidenced (quotes, up to five count), the oldest first on a tie. Only the best-connected
    ``CANDIDATES`` have their evidence read: a node's trail is decoded on demand, and a big
    graph should not decode them all."""
    degree = degrees(snapshot)
    pool = snapshot.nodes if among is None else among
    by_degree = sorted(pool, key=lambda n: (-degree[n.id], n.seq))[:CANDIDATES]
    weighed = sorted(by_degree,
                     key=lambda n: (-(degree[n.id] + min(_evidence_count(n), 5)), n.seq))
    return weighed[:limit]


def citing(snapshot: GraphSnapshot, source_id: str,
           limit: int = MAX_SCOPE_FACTS) -> list[SnapshotNode]:
    """The ideas a source (an imported file or a session) is evidence for, in graph order."""
    return [n for n in snapshot.nodes if source_id in n.sources][:limit]


def facts_of(nodes: Iterable[SnapshotNode]) -> tuple[GraphFact, ...]:
    return tuple(GraphFact(n.id, n.text, n.state) for n in nodes)


def evidence_passages(nodes: Iterable[SnapshotNode], start: int = 1,
                      limit: int = MAX_SCOPE_PASSAGES) -> tuple[Passage, ...]:
    """One passage per evidenced idea: its distinct quotes, verbatim (cards quote them)."""
    out: list[Passage] = []
    for node in nodes:
        if len(out) >= limit:
            break
        quotes: list[str] = []
        first_source = ""
        for row in node.rows()[0]:
            quote = " ".join(str(row[2]).split())
            if quote and quote not in quotes:
                quotes.append(quote)
                first_source = first_source or str(row[0])
            if len(quotes) >= QUOTES_PER_NODE:
                break
        if quotes:
            out.append(Passage(start + len(out), f"node {node.id}", clip_label(node.text),
                               clip_passage("\n".join(quotes)), first_source))
    return tuple(out)


def spread(items: Sequence[object], limit: int) -> list[int]:
    """``limit`` indexes spread evenly over ``items`` (all of them when they fit)."""
    n = len(items)
    if n <= limit:
        return list(range(n))
    return sorted({round(i * (n - 1) / (limit - 1)) for i in range(limit)}) if limit > 1 else [0]


def chunk_passages(chunks: Sequence[Chunk], start: int = 1,
                   limit: int = MAX_SCOPE_PASSAGES) -> tuple[Passage, ...]:
    """A source's passages in reading order, spread over the whole source when it is long."""
    chosen = [chunks[i] for i in spread(chunks, limit)]
    return tuple(Passage(start + k, c.link, c.title, clip_passage(c.text), c.source_id)
                 for k, c in enumerate(chosen))


def transcript_passages(messages: Sequence[Message], chat_id: str, start: int = 1,
                        limit: int = MAX_SCOPE_PASSAGES,
                        size: int = 1200) -> tuple[Passage, ...]:
    """A session's conversation (the learner's and the teacher's words, not the app's steers)
    in stretches of about ``size`` characters, spread over the session when it is long."""
    lines: list[str] = []
    for m in messages:
        if m.role not in ("user", "assistant") or steer_part(m) is not None:
            continue
        text = " ".join(" ".join(p.text.split()) for p in m.parts if isinstance(p, TextPart))
        if text:
            lines.append(f"{'Learner' if m.role == 'user' else 'Teacher'}: {text}")
    blocks: list[str] = []
    current = ""
    for line in lines:
        if current and len(current) + len(line) + 1 > size:
            blocks.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line
    if current:
        blocks.append(current)
    chosen = [blocks[i] for i in spread(blocks, limit)]
    return tuple(Passage(start + k, f"session {chat_id}", f"Session transcript, part {k + 1}",
                         clip_passage(text, size + 200), chat_id)
                 for k, text in enumerate(chosen))


def material(nodes: Sequence[SnapshotNode], label: str,
             text: Sequence[Passage] = ()) -> ScopeMaterial:
    """The grounding of a scope: its own text first, then its ideas' evidence."""
    room = max(0, MAX_SCOPE_PASSAGES - len(text))
    evidence = evidence_passages(nodes, start=len(text) + 1, limit=room)
    return ScopeMaterial(Grounding(facts_of(nodes), (*text, *evidence)), clip_label(label))
