"""The job kinds: what each takes (schema, checks, normalized input) and how it is named.

A job's input is checked before the job exists: a bad argument goes back to the teacher as a
tool error it can fix, never into a background task that would fail later.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, get_args

from studyhall.core.contracts.jobs import JobKind

JOB_KINDS: tuple[JobKind, ...] = get_args(JobKind)
# The study artifacts: one request may ask for several, written in parallel and assembled.
ARTIFACT_KINDS: tuple[JobKind, ...] = ("notes", "flashcards", "study_plan", "study_guide",
                                       "mind_map")

MAX_TEXT = 2000  # a question or brief; longer is not a brief any more
MIN_CARDS, MAX_CARDS, DEFAULT_CARDS = 3, 30, 10


@dataclass(frozen=True)
class Field_:
    name: str
    description: str
    required: bool = True
    kind: str = "string"  # "string" | "integer" | "kinds"


@dataclass(frozen=True)
class KindSpec:
    kind: JobKind
    noun: str  # how the learner and the teacher hear of it: "research", "demo"...
    description: str  # the teacher's tool description
    fields: tuple[Field_, ...]
    headline: str  # the field that names the job in the activity feed

    def schema(self) -> dict[str, Any]:
        properties: dict[str, Any] = {}
        for f in self.fields:
            if f.kind == "integer":
                properties[f.name] = {"type": "integer", "minimum": MIN_CARDS,
                                      "maximum": MAX_CARDS, "description": f.description}
            elif f.kind == "kinds":
                others = [k for k in ARTIFACT_KINDS if k != self.kind]
                properties[f.name] = {"type": "array", "items": {"type": "string", "enum": others},
                                      "description": f.description}
            else:
                properties[f.name] = {"type": "string", "description": f.description}
        return {"type": "object", "properties": properties,
                "required": [f.name for f in self.fields if f.required]}


_ALSO = Field_("also", "Other study artifacts to write in the same request, in parallel "
               "(delivered together).", required=False, kind="kinds")
_LATER = (" It runs in the background and returns at once; the result arrives later as a note "
          "in this conversation and the learner sees it as a card. Keep teaching meanwhile; do "
          "not wait for it or ask for it again.")

SPECS: dict[JobKind, KindSpec] = {
    "research": KindSpec(
        "research", "research",
        "Ask the researcher a question you want answered carefully (a fact to check, a worked "
        "example, what the learner's own notes and graph say about something)." + _LATER,
        (Field_("question", "The question, self-contained."),
         Field_("context", "Why you ask / what the answer is for.", required=False)),
        "question"),
    "demo": KindSpec(
        "demo", "demo",
        "Have a small interactive HTML demo built for an idea (a slider, a simulation, a "
        "step-through). It is tested in a browser before the learner sees it." + _LATER,
        (Field_("concept", "The idea the demo makes tangible."),
         Field_("brief", "What the learner should be able to do and see.")),
        "concept"),
    "visual": KindSpec(
        "visual", "diagram",
        "Have an SVG diagram drawn (a structure, a process, a comparison). It is checked and "
        "rendered before the learner sees it." + _LATER,
        (Field_("subject", "What the diagram shows."),
         Field_("brief", "What it must make clear; labels to include.", required=False)),
        "subject"),
    "notes": KindSpec(
        "notes", "notes",
        "Have study notes written for a topic of this session." + _LATER,
        (Field_("topic", "The topic the notes cover."),
         Field_("focus", "What to stress (e.g. the learner's misconceptions).", required=False),
         _ALSO),
        "topic"),
    "flashcards": KindSpec(
        "flashcards", "flashcards",
        "Have question/answer flashcards written for a topic, each tied to a node of the "
        "learner's knowledge graph when one fits." + _LATER,
        (Field_("topic", "The topic the cards cover."),
         Field_("count", f"How many cards ({MIN_CARDS}-{MAX_CARDS}, default {DEFAULT_CARDS}).",
                required=False, kind="integer"),
         _ALSO),
        "topic"),
    "study_plan": KindSpec(
        "study_plan", "study plan",
        "Have a study plan written: ordered steps from what the learner knows to their goal." +
        _LATER,
        (Field_("goal", "What the learner wants to be able to do."),
         Field_("topic", "The subject area.", required=False),
         _ALSO),
        "goal"),
    "study_guide": KindSpec(
        "study_guide", "study guide",
        "Have a study guide written for a topic: its key ideas and an FAQ of the questions "
        "learners ask, each answer quoting the learner's own material." + _LATER,
        (Field_("topic", "The topic the guide covers."),
         Field_("focus", "What to stress (e.g. the learner's misconceptions).", required=False),
         _ALSO),
        "topic"),
    "mind_map": KindSpec(
        "mind_map", "mind map",
        "Have a mind map drawn of a topic: its main ideas as branches around it, and the "
        "ideas under each." + _LATER,
        (Field_("topic", "The topic at the centre of the map."),
         Field_("focus", "What the map should bring out.", required=False),
         _ALSO),
        "topic"),
}


def _text(value: Any, name: str, required: bool, problems: list[str]) -> str | None:
    if value is None:
        if required:
            problems.append(f"{name} is missing: give it as a non-empty string.")
        return None
    if not isinstance(value, str) or not value.strip():
        problems.append(f"{name} must be a non-empty string.")
        return None
    text = " ".join(value.split()) if name != "brief" else value.strip()
    if len(text) > MAX_TEXT:
        problems.append(f"{name} is {len(text)} characters; keep it under {MAX_TEXT}.")
        return None
    return text


def _check(kind: JobKind, args: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    spec = SPECS[kind]
    problems: list[str] = []
    out: dict[str, Any] = {}
    known = {f.name for f in spec.fields}
    unknown = sorted(str(k) for k in args if k not in known)
    if unknown:
        problems.append(f"unknown argument(s): {', '.join(unknown)} "
                        f"(allowed: {', '.join(sorted(known))}).")
    for f in spec.fields:
        value = args.get(f.name)
        if f.kind == "integer":
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int) \
                    or not MIN_CARDS <= value <= MAX_CARDS:
                problems.append(f"{f.name} must be a whole number from {MIN_CARDS} to {MAX_CARDS}.")
            else:
                out[f.name] = value
        elif f.kind == "kinds":
            if value is None:
                continue
            others = [k for k in ARTIFACT_KINDS if k != kind]
            if not isinstance(value, list) or any(v not in others for v in value):
                problems.append(f"{f.name} must be a list drawn from {', '.join(others)}.")
            else:
                out[f.name] = [k for k in others if k in value]  # canonical order, no repeats
        else:
            text = _text(value, f.name, f.required, problems)
            if text is not None:
                out[f.name] = text
    return out, problems


def check_input(kind: JobKind, args: Mapping[str, Any]) -> list[str]:
    """Every problem with a tool call's arguments (``[]`` = fine)."""
    return _check(kind, args)[1]


def normalize_input(kind: JobKind, args: Mapping[str, Any]) -> dict[str, Any]:
    """The job's stored input: known fields only, whitespace tidied, defaults filled."""
    out, problems = _check(kind, args)
    if problems:
        raise ValueError("; ".join(problems))
    if kind == "flashcards":
        out.setdefault("count", DEFAULT_CARDS)
    return out


# What a running job is doing, as the learner reads it in the activity list: alone, and with
# its subject ("Writing flashcards on Obsidian internal links").
_DOING: dict[JobKind, tuple[str, str]] = {
    "research": ("Researching", "Researching: {}"),
    "demo": ("Building a demo", "Building a demo of {}"),
    "visual": ("Drawing a diagram", "Drawing a diagram of {}"),
    "notes": ("Writing notes", "Writing notes on {}"),
    "flashcards": ("Writing flashcards", "Writing flashcards on {}"),
    "study_plan": ("Planning your study", "Planning your study: {}"),
    "study_guide": ("Writing a study guide", "Writing a study guide on {}"),
    "mind_map": ("Drawing a mind map", "Drawing a mind map of {}"),
}


def job_title(kind: JobKind, job_input: Mapping[str, Any], limit: int = 80) -> str:
    """The running job's title: ``Writing flashcards on Obsidian internal links``."""
    subject = _subject(kind, job_input, limit)
    alone, with_subject = _DOING[kind]
    return with_subject.format(subject) if subject else alone


def _subject(kind: JobKind, job_input: Mapping[str, Any], limit: int) -> str:
    subject = " ".join(str(job_input.get(SPECS[kind].headline) or "").split())
    return subject if len(subject) <= limit else subject[: limit - 1].rstrip() + "…"


def headline(kind: JobKind, job_input: Mapping[str, Any], limit: int = 80) -> str:
    """A one-line name for the job: ``Demo: binary search``."""
    spec = SPECS[kind]
    subject = _subject(kind, job_input, limit)
    name = spec.noun[0].upper() + spec.noun[1:]
    return f"{name}: {subject}" if subject else name
