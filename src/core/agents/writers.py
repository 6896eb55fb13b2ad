"""The study-material writers: notes (``notes_writer``), flashcards (``flashcards_writer``) and
study plans (``study_planner``). Each answers JSON of its artifact's shape, grounded in the
learner's graph (node ids to tie cards and steps to) and imported material.

Each role is separate so a fan-out runs the writers at the same time; each result is checked
(shape, then ``check_artifact``) and sent back with its problems until it passes or the
attempts run out.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ValidationError
from studyhall.core.agents.builder import ATTEMPTS, Built, build_verified
from studyhall.core.agents.grounding import Grounding, render_facts, render_passages
from studyhall.core.agents.structured import describe_error, parse_json_text
from studyhall.core.contracts.jobs import JobKind
from studyhall.core.contracts.settings import ModelRole
from studyhall.core.ports.models import ChatModel
from studyhall.core.workbench.artifacts import ARTIFACT_MODELS, artifact_schema, check_artifact

ROLES: dict[JobKind, ModelRole] = {
    "notes": "notes_writer",
    "flashcards": "flashcards_writer",
    "study_plan": "study_planner",
}
PROMPTS: dict[JobKind, str] = {
    "notes": "notes_writer.md",
    "flashcards": "flashcards_writer.md",
    "study_plan": "study_planner.md",
}
FIX = "Fix every problem and answer again with only the whole JSON object, following the schema."


def writer_messages(prompt: str, kind: JobKind, brief: Mapping[str, Any],
                    grounding: Grounding) -> list[dict[str, str]]:
    schema = json.dumps(artifact_schema(kind), separators=(",", ":"))
    system = "\n\n".join([prompt.strip(), f"Answer with one JSON object of this schema:\n{schema}",
                          render_facts(grounding.facts), render_passages(grounding.passages)])
    return [{"role": "system", "content": system},
            {"role": "user", "content": json.dumps(dict(brief), ensure_ascii=False)}]


def _reader(kind: JobKind) -> Any:
    model = ARTIFACT_MODELS[kind]

    def read(text: str) -> BaseModel:
        try:
            return model.model_validate(parse_json_text(text))
        except ValidationError as e:
            raise ValueError(f"the JSON does not fit the schema: {describe_error(e)}") from e

    return read


async def write_artifact(model: ChatModel, prompt: str, kind: JobKind, brief: Mapping[str, Any],
                         grounding: Grounding, attempts: int = ATTEMPTS) -> Built[dict[str, Any]]:
    async def verify(artifact: BaseModel) -> list[str]:
        return check_artifact(kind, artifact, grounding.node_ids, dict(brief))  # type: ignore[arg-type]

    built = await build_verified(
        model, ROLES[kind], writer_messages(prompt, kind, brief, grounding),
        read=_reader(kind), verify=verify, what=kind.replace("_", " "), fix=FIX,
        attempts=attempts, schema=artifact_schema(kind),
    )
    return Built(built.value.model_dump(mode="json"), built.attempts, built.text, built.history)
