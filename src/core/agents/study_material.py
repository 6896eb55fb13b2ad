"""What a "Study this" session studies with: the note's sections and its passages, as material.

Pure: the runtime reads the graph and the search index. The note's outline (its headings) and
its passages go to the prober and the teacher once, as the session's first steer, inside the
guardrails' delimiters with their data notice (``core.guardrails.material``) — the same
numbered ``<source>`` form Ask cites — and within a length budget. The steer's data part keeps
how many passages were given, so every later turn knows which ``[n]`` markers name one
(``citable_passages``): the rest are removed as Ask removes them (``core.agents.citations``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from studyhall.core.agents.grounding import Passage, clip_passage, render_passages
from studyhall.core.agents.scope_grounding import chunk_passages, evidence_passages
from studyhall.core.contracts.chat import DataPart, Message, SteerPart
from studyhall.core.contracts.search import Chunk
from studyhall.core.contracts.steers import steer_message, study_steer_id
from studyhall.core.guardrails.material import data_block
from studyhall.core.library.graph.outline import CurrentSections, node_outline
from studyhall.core.library.graph.view import SnapshotNode

MATERIAL_CHARS = 6_000  # the passages' whole budget (about 1,500 tokens): a prompt, not a book
MAX_PASSAGES = 8
MIN_PASSAGE_CHARS = 200  # a passage clipped shorter than this says too little: left out
MAX_SECTIONS = 40
STUDY_DATA = "study-material"  # the steer's data part: what the UI and later turns read


@dataclass(frozen=True)
class Section:
    heading: str
    level: int  # 0 for the note's title, else the heading's level


@dataclass(frozen=True)
class StudyMaterial:
    node_id: str
    title: str  # the note's (or topic's) name
    sections: tuple[Section, ...]
    passages: tuple[Passage, ...]

    @property
    def empty(self) -> bool:
        return not self.sections and not self.passages


def study_material(node: SnapshotNode, chunks: Sequence[Chunk],
                   current: CurrentSections | None = None) -> StudyMaterial:
    """A node's material: its outline, and its note's passages from the search index in reading
    order (spread over a long note) — or, when the note is not indexed, each section's quoted
    sentences from the graph; a topic that is no note gives its own evidence. ``current``: its
    notes' sections now (``node_outline``), so a heading the note has lost is not studied."""
    outline = node_outline(node, current)
    # Not the title (level 0, or the note's "# Title" heading): the material names the note.
    title = " ".join(node.text.split()).casefold()
    sections = tuple(Section(s.heading, s.level) for s in outline
                     if s.level > 0 and " ".join(s.heading.split()).casefold() != title)
    if chunks:
        passages = chunk_passages(chunks, limit=MAX_PASSAGES)
    elif outline:
        passages = section_passages(node, current)
    else:
        passages = evidence_passages([node], limit=MAX_PASSAGES)
    return StudyMaterial(node.id, node.text, sections, budgeted(passages))


def section_passages(node: SnapshotNode, current: CurrentSections | None = None,
                     ) -> tuple[Passage, ...]:
    """One passage per section of a note: its heading, then its quoted sentences."""
    outline = node_outline(node, current)
    by_section: dict[str, list[str]] = {s.message_id: [] for s in outline}
    for _, message_id, quote, *_ in node.rows()[0]:
        lines = by_section.get(message_id)
        text = " ".join(str(quote).split())
        if lines is not None and text and text not in lines:
            lines.append(text)
    titles = {s.message_id: (s.heading or node.text, s.source_id, s.anchor) for s in outline}
    out: list[Passage] = []
    for message_id, lines in by_section.items():
        heading, source_id, anchor = titles[message_id]
        if len(lines) > 1 or (lines and not anchor):
            out.append(Passage(len(out) + 1, message_id, heading, "\n".join(lines), source_id))
    return tuple(out)


def budgeted(passages: Sequence[Passage], budget: int = MATERIAL_CHARS,
             limit: int = MAX_PASSAGES) -> tuple[Passage, ...]:
    """The passages that fit, in order and numbered from 1: each clipped to what is left of
    the budget; one that would be clipped under ``MIN_PASSAGE_CHARS`` ends the list."""
    out: list[Passage] = []
    left = budget
    for passage in passages[:limit]:
        text = clip_passage(passage.text, left)
        if len(text) < min(MIN_PASSAGE_CHARS, len(passage.text.strip())) or not text:
            break
        out.append(replace(passage, n=len(out) + 1, text=text))
        left -= len(text)
        if left < MIN_PASSAGE_CHARS:
            break
    return tuple(out)


def outline_text(sections: Sequence[Section]) -> str:
    lines = [f"{'  ' * max(0, s.level - 1)}- {s.heading}" for s in sections[:MAX_SECTIONS]
             if s.level > 0 and s.heading]
    return "\n".join(lines) or "(no headings)"


def study_text(material: StudyMaterial) -> str:
    """What the prober and the teacher read: the task, the outline and the passages, each
    piece of the note inside delimiters."""
    outline = data_block(outline_text(material.sections), "material",
                         {"title": material.title, "part": "outline"})
    cite = (f"Cite a passage with its number in square brackets right after what it supports, "
            f"e.g. [1]; only the numbers 1 to {len(material.passages)} exist, never invent one."
            if material.passages else "There are no passages to cite: cite nothing.")
    return (
        "The learner pressed \"Study this\" on one of their notes: this session studies it. "
        "Probe and teach from the note's sections and passages below, and write quizzes on "
        f"what it says. {cite}\n\n"
        f"The note's sections:\n{outline}\n\n{render_passages(material.passages)}"
    )


def study_steer(chat_id: str, material: StudyMaterial, at: datetime) -> Message:
    """The session's first message: the material, for the model; its data part for the UI."""
    return steer_message(
        study_steer_id(chat_id), "material", study_text(material), at, data_name=STUDY_DATA,
        data={"node_id": material.node_id, "title": material.title,
              "sections": [{"heading": s.heading, "level": s.level} for s in material.sections],
              "passages": [{"n": p.n, "title": p.title, "link": p.link,
                            "source_id": p.source_id} for p in material.passages]},
    )


def citable_passages(messages: Sequence[Message]) -> int | None:
    """How many passages the session's material numbered (markers 1..n are real), or None
    when the session studies no note (its markers are left as they are)."""
    for message in messages:
        if not any(isinstance(p, SteerPart) and p.kind == "material" for p in message.parts):
            continue
        for part in message.parts:
            if isinstance(part, DataPart) and part.name == STUDY_DATA:
                passages = part.data.get("passages")
                return len(passages) if isinstance(passages, list) else 0
    return None
