"""The researcher (role ``researcher``): answers the teacher's question, grounded in the
learner's own graph and imported material when they hold something relevant.

Citations are checked like grounded answers: ``[n]`` must name a passage it was given; an
invented marker is removed and counted, so the teacher never passes on a false citation.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from studyhall.core.agents.builder import Built, build_verified
from studyhall.core.agents.citations import MarkerFilter
from studyhall.core.agents.grounding import Grounding, render_facts, render_passages
from studyhall.core.ports.models import ChatModel

PROMPT_NAME = "researcher.md"
ATTEMPTS = 2
FIX = "Answer the question again, in full, in Markdown."


def research_messages(prompt: str, job_input: Mapping[str, Any],
                      grounding: Grounding) -> list[dict[str, str]]:
    context = job_input.get("context")
    ask = f"Question: {job_input.get('question', '')}"
    if context:
        ask += f"\nWhy the teacher asks: {context}"
    return [
        {"role": "system", "content": "\n\n".join([prompt.strip(), render_facts(grounding.facts),
                                                   render_passages(grounding.passages)])},
        {"role": "user", "content": ask},
    ]


def _read(text: str) -> str:
    answer = text.strip()
    if len(answer) < 20:
        raise ValueError("the answer is empty or too short to be useful.")
    return answer


async def _no_more_checks(answer: str) -> list[str]:
    return []


async def research(model: ChatModel, prompt: str, job_input: Mapping[str, Any],
                   grounding: Grounding, attempts: int = ATTEMPTS) -> Built[dict[str, Any]]:
    built = await build_verified(
        model, "researcher", list(research_messages(prompt, job_input, grounding)),
        read=_read, verify=_no_more_checks, what="research answer", fix=FIX, attempts=attempts,
    )
    markers = MarkerFilter(len(grounding.passages))
    answer = (markers.feed(built.value) + markers.flush()).strip()
    cited = [p for p in grounding.passages if p.n in markers.used]
    result = {
        "question": job_input.get("question", ""),
        "answer": answer,
        "sources": [{"n": p.n, "link": p.link, "title": p.title, "source_id": p.source_id}
                    for p in cited],
        "nodes": [f.node_id for f in grounding.facts],
        "grounded": bool(grounding.facts or grounding.passages),
        "removed_markers": markers.removed,
    }
    return Built(result, built.attempts, built.text, built.history)
