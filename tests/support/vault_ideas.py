"""Ideas inside an imported vault's topics, as a model's extraction would add them: each a
proposition quoting a line of its note, with a ``supports`` edge into the note's topic, some of
them quizzed (solid, shaky) — for the map's satellites (issue 28 item 1)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from studyhall.core.contracts.graph import (
    EdgeAdded,
    Evidence,
    PropositionCreated,
    QuizEvent,
    RunCheckpoint,
)

AT = datetime(2026, 3, 1, tzinfo=UTC)
CLAIMS = ["lists every note that links to the open one", "can be opened from the command palette",
          "updates as soon as a note is saved", "shows unlinked mentions below the links",
          "can be pinned beside the editor", "keeps its settings per vault",
          "works on files in any folder", "is turned off in the core plugin settings",
          "counts a link once per note", "can sort notes by name or date",
          "follows the note that has focus", "opens a note in a new tab with a modifier key"]


def add_ideas(store: Any, body: dict, plan: dict[str, int]) -> dict[str, list[str]]:
    """Ideas for each topic title in ``plan`` (how many), under the map ``body``'s topic of
    that title; the first idea of each is quizzed right (solid), the second wrong (shaky).
    Returns {title: [idea ids]}."""
    records, edges, quizzes, out = [], [], [], {}
    for title, count in plan.items():
        at = body["labels"].index(title)
        topic, src = body["ids"][at], body["src"][at]
        source = body["sources"][src if isinstance(src, int) else src[0]]
        ids = out[title] = []
        for j in range(count):
            idea = f"idea_{topic}_{j}"
            again = "" if j < len(CLAIMS) else f" in view {j // len(CLAIMS) + 1}"
            text = f"{title} {CLAIMS[j % len(CLAIMS)]}{again}."
            ids.append(idea)
            records.append(PropositionCreated(
                id=f"prp_{idea}", node_id=idea, text=text, source_id=source, run_id="ideas",
                evidence=(Evidence(source_id=source, message_id=f"{source}#How it works",
                                   quote=text),), at=AT))
            edges.append(EdgeAdded.model_validate({
                "id": f"e_{idea}", "from": idea, "to": topic, "relation": "supports",
                "source_id": source, "run_id": "ideas", "at": AT}))
            verdicts = {0: ["correct", "correct"], 1: ["miss"]}.get(j, [])
            quizzes += [QuizEvent(id=f"q_{idea}_{n}", node_id=idea, verdict=v, source_id="chat",
                                  tool_call_id=f"call_{idea}_{n}", question_index=0,
                                  run_id="ideas", at=AT) for n, v in enumerate(verdicts)]
    store.append_propositions(records)
    store.append_edges(edges)
    store.append_quiz_events(quizzes)
    store.append_checkpoint(RunCheckpoint(id="ideas", source_id="ideas", started_at=AT,
                                          finished_at=AT, propositions=len(records)))
    return out
