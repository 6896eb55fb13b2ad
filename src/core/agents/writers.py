"""The study-material writers: notes, flashcards, study plan, study guide and mind map. Each
answers JSON of its artifact's shape, grounded in the learner's graph (node ids to tie cards and
steps to) and imported material (quoted as evidence).

Each kind is a separate call so a fan-out runs the writers at the same time; each result is
checked (shape, then ``review_artifact``): problems go back to the writer until it passes or the
attempts run out; cards and claims their evidence does not back are dropped and counted.
Study guides and mind maps use the ``notes_writer`` model role (no settings of their own).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError
from studyhall.core.agents.builder import ATTEMPTS, Built, MisshapenAnswer, build_verified
from studyhall.core.agents.grounding import Grounding, render_facts, render_passages
from studyhall.core.agents.structured import describe_error, parse_json_text
from studyhall.core.contracts.jobs import JobKind
from studyhall.core.contracts.settings import ModelRole
from studyhall.core.ports.models import ChatModel
from studyhall.core.workbench.artifact_checks import Offered, Review, review_artifact
from studyhall.core.workbench.artifacts import ARTIFACT_MODELS, artifact_schema

ROLES: dict[JobKind, ModelRole] = {
    "notes": "notes_writer",
    "flashcards": "flashcards_writer",
    "study_plan": "study_planner",
    "study_guide": "notes_writer",
    "mind_map": "notes_writer",
}
PROMPTS: dict[JobKind, str] = {
    "notes": "notes_writer.md",
    "flashcards": "flashcards_writer.md",
    "study_plan": "study_planner.md",
    "study_guide": "study_guide_writer.md",
    "mind_map": "mind_map_writer.md",
}
QUOTING: frozenset[JobKind] = frozenset({"flashcards", "study_guide"})  # claims cite evidence
FIX = "Fix every problem and answer again with only the whole JSON object, following the schema."


def offered(grounding: Grounding) -> Offered:
    """What the checks hold a writer to: the node ids and the texts it was shown."""
    texts = tuple(f.text for f in grounding.facts) + tuple(p.text for p in grounding.passages)
    places: dict[str, dict[str, str]] = {}
    for f in grounding.facts:
        places.setdefault(f.text, {"node_id": f.node_id})
    for p in grounding.passages:
        if p.source_id:
            places.setdefault(p.text, {"source_id": p.source_id, "anchor": p.link.partition("#")[2],
                                       "title": p.title})
    return Offered(nodes=grounding.node_ids, texts=texts, places=places)


def _evidence_rule(grounding: Grounding) -> str:
    if grounding.facts or grounding.passages:
        return ("Evidence: set every `evidence` to a verbatim quote (a sentence or a clause, "
                "copied exactly; mark a cut with ...) from the graph facts or passages below "
                "that states what the card or claim says. A card or claim whose quote is not "
                "there, or does not say the same thing, is dropped.")
    return ("Evidence: there is no material to quote on this topic, so set every `evidence` to "
            "null and write only what you are sure of.")


def writer_messages(prompt: str, kind: JobKind, brief: Mapping[str, Any],
                    grounding: Grounding) -> list[dict[str, str]]:
    schema = json.dumps(artifact_schema(kind), separators=(",", ":"))
    parts = [prompt.strip(), f"Answer with one JSON object of this schema:\n{schema}"]
    if kind in QUOTING:
        parts.append(_evidence_rule(grounding))
    parts += [render_facts(grounding.facts), render_passages(grounding.passages)]
    return [{"role": "system", "content": "\n\n".join(parts)},
            {"role": "user", "content": json.dumps(dict(brief), ensure_ascii=False)}]


def _reader(kind: JobKind, given: Offered, brief: Mapping[str, Any]) -> Any:
    model = ARTIFACT_MODELS[kind]

    def read(text: str) -> Review:
        try:
            answer = model.model_validate(parse_json_text(text))
        except ValidationError as e:
            raise MisshapenAnswer(f"the JSON does not fit the schema: {describe_error(e)}",
                                  _left_out(e)) from e
        except ValueError as e:
            raise MisshapenAnswer(str(e), "the model's answer was not in the form asked for "
                                          "(it could not be read)") from e
        return review_artifact(kind, answer, given, dict(brief))

    return read


def _left_out(error: ValidationError) -> str:
    """The parts an answer left out or got wrong, in words: "key ideas", "card 2's answer"."""
    parts: list[str] = []
    for e in error.errors():
        words = [f"item {p + 1}" if isinstance(p, int) else str(p).replace("_", " ")
                 for p in e["loc"]]
        part = " of ".join(reversed(words)) or "the whole answer"
        if part not in parts:
            parts.append(part)
    shown = ", ".join(parts[:3]) + (f" and {len(parts) - 3} more" if len(parts) > 3 else "")
    return f"the model's answer left out or garbled a required part ({shown})"


async def write_artifact(model: ChatModel, prompt: str, kind: JobKind, brief: Mapping[str, Any],
                         grounding: Grounding, attempts: int = ATTEMPTS) -> Built[dict[str, Any]]:
    """The kept content of a ``kind`` artifact (with ``dropped`` / ``dropped_reasons``), or
    ``JobFailed`` when no answer passed its checks within ``attempts``."""
    async def verify(review: Review) -> list[str]:
        return list(review.problems)

    built = await build_verified(
        model, ROLES[kind], writer_messages(prompt, kind, brief, grounding),
        read=_reader(kind, offered(grounding), brief), verify=verify,
        what=kind.replace("_", " "), fix=FIX, attempts=attempts, schema=artifact_schema(kind),
    )
    return Built(built.value.content, built.attempts, built.text, built.history)
