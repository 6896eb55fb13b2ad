"""The checks a written study artifact passes, and the content that is kept.

Two kinds of finding. A *problem* goes back to the writer to fix (the builder's retry loop):
unknown graph node ids, duplicate questions, a wrong number of cards, a malformed mind map.
A *drop* leaves one card or claim out and counts it (``dropped``, ``dropped_reasons``): its
evidence is missing, is not a quote from the material, or does not back it (see ``evidence``).
Drops turn into a problem only when too few survive: fewer than half of what was written.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from studyhall.core.contracts.jobs import JobKind
from studyhall.core.workbench.artifacts import (
    Answer,
    Card,
    FaqEntry,
    Flashcards,
    KeyIdea,
    MindMap,
    Notes,
    StudyGuide,
    StudyPlan,
)
from studyhall.core.workbench.evidence import evidence_problem, find_quote
from studyhall.core.workbench.mind_map import MAX_DEPTH, grow, render_mermaid

MIN_NOTES_CHARS = 40
LISTED_DROPS = 6  # of the dropped items, how many a "too few survive" problem names

T = TypeVar("T", Card, KeyIdea, FaqEntry)


@dataclass(frozen=True)
class Offered:
    """What the writer was given: graph node ids to point at, and the texts it may quote
    (graph propositions and imported passages)."""

    nodes: frozenset[str] = frozenset()
    texts: tuple[str, ...] = ()
    # Where each text is, by the text: {"node_id"} for a graph fact, {"source_id", "anchor",
    # "title"} for a passage — so a kept quote links to its place in the window.
    places: Mapping[str, Mapping[str, str]] = field(default_factory=dict)


def _placed(item: Card | KeyIdea | FaqEntry, offered: Offered) -> dict[str, Any]:
    """The kept item as JSON, with ``evidence_place`` when its quote's text has a place."""
    out = item.model_dump(mode="json")
    source = find_quote(item.evidence, offered.texts) if item.evidence else None
    place = offered.places.get(source) if source is not None else None
    if place:
        out["evidence_place"] = dict(place)
    return out


@dataclass(frozen=True)
class Review:
    content: dict[str, Any]  # what is kept: the surviving items, plus dropped / dropped_reasons
    problems: tuple[str, ...]  # for the writer to fix; empty = keep ``content``


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _unknown_node(where: str, node_id: str | None, offered: Offered) -> list[str]:
    if node_id is None or node_id in offered.nodes:
        return []
    return [(f"{where}: node_id {node_id!r} is not one of the graph nodes you were given; use "
             "one of those ids or null.")]


def _screen(items: Sequence[T], claim: Callable[[T], str], name: Callable[[T], str],
            offered: Offered) -> tuple[list[T], list[str]]:
    """The items whose evidence backs their claim, and why each other one was dropped."""
    kept: list[T] = []
    reasons: list[str] = []
    for item in items:
        why = evidence_problem(claim(item), item.evidence, offered.texts)
        if why is None:
            kept.append(item)
        else:
            reasons.append(f"{name(item)}: {why}.")
    return kept, reasons


def _too_few(what: str, written: int, kept: int, reasons: Sequence[str]) -> list[str]:
    if written == 0 or kept * 2 >= written and kept > 0:
        return []
    listed = " ".join(reasons[:LISTED_DROPS]) + (" …" if len(reasons) > LISTED_DROPS else "")
    return [(f"only {kept} of {written} {what} are backed by the material. Give each one "
             "`evidence`: a verbatim quote (at least a few words) from the graph facts or "
             "passages you were given that states it, and say only what that quote says. "
             f"Dropped: {listed}")]


def _dropped(reasons: Sequence[str]) -> dict[str, Any]:
    return {"dropped": len(reasons), "dropped_reasons": list(reasons)}


def _flashcards(a: Flashcards, offered: Offered, job_input: dict[str, Any]) -> Review:
    problems: list[str] = []
    fronts = [" ".join(c.front.split()).casefold() for c in a.cards]
    if len(set(fronts)) != len(fronts):
        problems.append("two cards ask the same question; make every card ask something else.")
    for n, card in enumerate(a.cards, start=1):
        if not card.front.strip() or not card.back.strip():
            problems.append(f"card {n} has an empty side.")
        problems += _unknown_node(f"card {n}", card.node_id, offered)
    wanted = job_input.get("count")
    if isinstance(wanted, int) and abs(len(a.cards) - wanted) > max(2, wanted // 4):
        problems.append(f"write {wanted} cards (you wrote {len(a.cards)}).")
    kept, reasons = _screen(a.cards, lambda c: c.back, lambda c: f'Card "{_short(c.front)}"',
                            offered)
    problems += _too_few("cards", len(a.cards), len(kept), reasons)
    content = {"title": a.title, "cards": [_placed(c, offered) for c in kept],
               **_dropped(reasons)}
    return Review(content, tuple(problems))


def _study_guide(a: StudyGuide, offered: Offered) -> Review:
    problems: list[str] = []
    for n, idea in enumerate(a.key_ideas, start=1):
        problems += _unknown_node(f"key idea {n}", idea.node_id, offered)
    for n, entry in enumerate(a.faq, start=1):
        problems += _unknown_node(f"FAQ entry {n}", entry.node_id, offered)
    questions = [" ".join(e.question.split()).casefold() for e in a.faq]
    if len(set(questions)) != len(questions):
        problems.append("two FAQ entries ask the same question; make every question different.")
    ideas, idea_drops = _screen(a.key_ideas, lambda i: i.idea,
                                lambda i: f'Key idea "{_short(i.idea)}"', offered)
    faq, faq_drops = _screen(a.faq, lambda e: e.answer,
                             lambda e: f'Question "{_short(e.question)}"', offered)
    problems += _too_few("key ideas", len(a.key_ideas), len(ideas), idea_drops)
    problems += _too_few("FAQ answers", len(a.faq), len(faq), faq_drops)
    content = {"title": a.title, "key_ideas": [_placed(i, offered) for i in ideas],
               "faq": [_placed(e, offered) for e in faq],
               **_dropped(idea_drops + faq_drops)}
    return Review(content, tuple(problems))


def _mind_map(a: MindMap, offered: Offered) -> Review:
    grown = grow(a.center, a.ideas)
    problems = list(grown.problems)
    for n, idea in enumerate(a.ideas, start=1):
        problems += _unknown_node(f"idea {n} ({idea.id!r})", idea.node_id, offered)
    plural = "s" if grown.left_out != 1 else ""
    reasons = [f"{grown.left_out} idea{plural} deeper than {MAX_DEPTH} levels left out."] \
        if grown.left_out else []
    content = {"title": a.title, "root": grown.root.to_dict(),
               "mermaid": render_mermaid(grown.root),
               "dropped": grown.left_out, "dropped_reasons": reasons}
    return Review(content, tuple(problems))


def review_artifact(kind: JobKind, artifact: Answer, offered: Offered,
                    job_input: dict[str, Any]) -> Review:
    """What of ``artifact`` is kept, and what the writer must fix first."""
    if isinstance(artifact, Flashcards):
        return _flashcards(artifact, offered, job_input)
    if isinstance(artifact, StudyGuide):
        return _study_guide(artifact, offered)
    if isinstance(artifact, MindMap):
        return _mind_map(artifact, offered)
    problems: list[str] = []
    if isinstance(artifact, Notes) and len(artifact.markdown.strip()) < MIN_NOTES_CHARS:
        problems.append("the notes are almost empty; write real notes in Markdown.")
    if isinstance(artifact, StudyPlan):
        for n, step in enumerate(artifact.steps, start=1):
            unknown = [i for i in step.node_ids if i not in offered.nodes]
            if unknown:
                problems.append(f"step {n}: node ids {unknown} are not among the graph nodes "
                                "you were given; use only those ids (or none).")
    if not isinstance(artifact, (Notes, StudyPlan)):
        raise TypeError(f"no checks for a {kind} artifact")
    return Review({**artifact.model_dump(mode="json"), **_dropped([])}, tuple(problems))
