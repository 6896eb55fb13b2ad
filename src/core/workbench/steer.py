"""A finished job as a steer message: the text the teacher reads, the artifact the UI shows.

The message is user-role (system-authored, marked by its steer part), its id is the steer id
(``steer_<job_id>``), its text is the model-facing result and its ``artifact`` data part the
whole result for the client (providers never see data parts). Built from the job record
alone, so a restarted process builds the same steer (same id, same text and artifact).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from studyhall.core.contracts.chat import Message
from studyhall.core.contracts.jobs import Job
from studyhall.core.contracts.steers import job_steer_id, steer_message
from studyhall.core.guardrails.material import data_block
from studyhall.core.workbench.kinds import SPECS, headline

MAX_MODEL_CHARS = 6000  # what the teacher reads of a long artifact; the learner sees it all


def _clip(text: str, limit: int = MAX_MODEL_CHARS) -> str:
    return text if len(text) <= limit else text[:limit].rstrip() + "\n[… cut; the learner sees all]"


def _attempts(job: Job) -> str:
    return f"after {job.attempts} attempt{'s' if job.attempts != 1 else ''}"


def _research(job: Job, r: dict[str, Any]) -> str:
    # The answer was written from imported material: it reaches the teacher as data.
    lines = [f'Research finished for your question: "{job.input.get("question", "")}"', "",
             data_block(_clip(str(r.get("answer", ""))), "material", {"kind": "research result"})]
    sources = r.get("sources") or []
    if sources:
        lines += ["", "Sources (the learner's own material; cite them by number):"]
        lines += [f"[{s['n']}] {s.get('title') or s.get('link')} — {s.get('link')}" for s in sources]
    lines += ["", "The learner sees this result as a card. Use it in your teaching."]
    return "\n".join(lines)


def _demo(job: Job, r: dict[str, Any]) -> str:
    return (f'The demo "{r.get("title")}" (concept: {job.input.get("concept", "")}) is ready: it '
            f"loaded in a browser without errors {_attempts(job)}, and the learner now sees it "
            f"as an interactive card. What it does: {r.get('description') or job.input.get('brief')}\n"
            "Introduce it in a sentence and invite the learner to try it; do not paste its code.")


def _visual(job: Job, r: dict[str, Any]) -> str:
    return (f'The diagram "{r.get("title")}" is ready and shown to the learner as a card '
            f"(checked and rendered {_attempts(job)}). It shows: "
            f"{r.get('description') or job.input.get('subject')}\n"
            "Refer to it where it helps; do not redraw it in text.")


def _left_out(a: dict[str, Any]) -> str:
    n = a.get("dropped") or 0
    return f"{n} left out: not backed by the material" if n else ""


def _outline(node: dict[str, Any], depth: int = 0) -> list[str]:
    lines = [f"{'  ' * depth}- {node.get('label')}"]
    for child in node.get("children") or []:
        lines += _outline(child, depth + 1)
    return lines


def _artifact_text(kind: str, a: dict[str, Any]) -> str:
    if kind == "notes":
        return f"Notes — {a.get('title')}:\n{_clip(str(a.get('markdown', '')), 3000)}"
    if kind == "flashcards":
        cards = [f"- Q: {c.get('front')} / A: {c.get('back')}" for c in a.get("cards", [])]
        many = f"{len(cards)} card{'s' if len(cards) != 1 else ''}"
        counts = ", ".join(filter(None, [many, _left_out(a)]))
        return f"Flashcards — {a.get('title')} ({counts}):\n" + "\n".join(cards)
    if kind == "study_guide":
        ideas = [f"- {i.get('idea')}" for i in a.get("key_ideas", [])]
        faq = [f"- Q: {e.get('question')} / A: {e.get('answer')}" for e in a.get("faq", [])]
        note = f" ({_left_out(a)})" if _left_out(a) else ""
        return (f"Study guide — {a.get('title')}{note}:\nKey ideas:\n"
                + "\n".join(ideas) + "\nFAQ:\n" + "\n".join(faq))
    if kind == "mind_map":
        return f"Mind map — {a.get('title')}:\n" + "\n".join(_outline(a.get("root") or {}))
    steps = [f"{n}. {s.get('title')}" + (f" — {s.get('detail')}" if s.get("detail") else "")
             for n, s in enumerate(a.get("steps", []), start=1)]
    return f"Study plan — {a.get('title')} (goal: {a.get('goal')}):\n" + "\n".join(steps)


def _artifacts(job: Job, r: dict[str, Any]) -> str:
    written = r.get("artifacts") or {}
    parts = [_artifact_text(k, a) for k, a in written.items()]
    failed = r.get("failed") or {}
    names = ", ".join(SPECS[k].noun for k in written)
    lines = [(f"The study material you asked for is ready and shown to the learner as cards: "
              f"{names}."), ""]
    lines.append(data_block(_clip("\n\n".join(parts)), "material", {"kind": "study material"}))
    if failed:
        lines += ["", "Not written (failed its checks): " +
                  "; ".join(f"{SPECS[k].noun}: {why}" for k, why in failed.items())]
    lines += ["", "Point the learner to it briefly; do not repeat it."]
    return "\n".join(lines)


def result_text(job: Job) -> str:
    """What the teacher reads when the job's steer arrives."""
    if job.outcome == "error" or job.result is None:
        return (f"The {SPECS[job.kind].noun} job you started ({headline(job.kind, job.input)}) "
                f"failed: {job.error or 'no reason was recorded'}\n"
                "The learner sees a short failure notice. Mention it only if it matters, carry "
                "on without it, and ask again with a simpler request if it is still needed.")
    if job.kind == "research":
        return _research(job, job.result)
    if job.kind == "demo":
        return _demo(job, job.result)
    if job.kind == "visual":
        return _visual(job, job.result)
    return _artifacts(job, job.result)


def artifact_data(job: Job) -> dict[str, Any]:
    """The ``artifact`` data part: everything the UI needs to render the card."""
    return {
        "job_id": job.id,
        "kind": job.kind,
        "status": job.outcome,
        "title": headline(job.kind, job.input),
        "input": dict(job.input),
        "result": job.result if job.outcome == "done" else None,
        "error": job.error if job.outcome == "error" else None,
        "attempts": job.attempts,
    }


def job_steer(job: Job, at: datetime) -> Message:
    """The steer that delivers a finished job (``ValueError`` if the job has not finished)."""
    if job.outcome is None:
        raise ValueError(f"job {job.id} has not finished; there is nothing to deliver")
    return steer_message(job_steer_id(job.id), "job", result_text(job), at,
                         data_name="artifact", data=artifact_data(job))
