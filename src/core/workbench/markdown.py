"""A kept study artifact as Markdown, for "copy as Markdown" and printing.

Reads the content shapes ``artifact_checks`` keeps (and older ones written before evidence
existed: every key but the title is optional). Evidence quotes become block quotes under what
they back; a mind map is its mermaid block followed by the same tree as an indented outline.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from studyhall.core.workbench.mind_map import from_dict, outline, render_mermaid


def _quote(text: str | None) -> list[str]:
    if not text or not text.strip():
        return []
    return ["> " + line if line.strip() else ">" for line in text.strip().splitlines()]


def _one_line(text: Any) -> str:
    return " ".join(str(text or "").split())


def _notes(c: Mapping[str, Any]) -> str:
    body = str(c.get("markdown") or "").strip()
    return body if body.startswith("#") else f"# {_one_line(c.get('title'))}\n\n{body}"


def _flashcards(c: Mapping[str, Any]) -> str:
    lines = [f"# {_one_line(c.get('title'))}"]
    for card in c.get("cards") or []:
        lines += ["", f"**Q:** {str(card.get('front', '')).strip()}",
                  "", f"**A:** {str(card.get('back', '')).strip()}"]
        quoted = _quote(card.get("evidence"))
        if quoted:
            lines += ["", *quoted]
    return "\n".join(lines)


def _study_plan(c: Mapping[str, Any]) -> str:
    lines = [f"# {_one_line(c.get('title'))}"]
    if c.get("goal"):
        lines += ["", f"**Goal:** {_one_line(c['goal'])}"]
    lines.append("")
    for n, step in enumerate(c.get("steps") or [], start=1):
        minutes = f" ({step['minutes']} min)" if step.get("minutes") else ""
        detail = f" — {_one_line(step['detail'])}" if step.get("detail") else ""
        lines.append(f"{n}. **{_one_line(step.get('title'))}**{minutes}{detail}")
    return "\n".join(lines)


def _study_guide(c: Mapping[str, Any]) -> str:
    lines = [f"# {_one_line(c.get('title'))}", "", "## Key ideas"]
    for idea in c.get("key_ideas") or []:
        lines += ["", f"- {_one_line(idea.get('idea'))}"]
        quoted = _quote(idea.get("evidence"))
        if quoted:
            lines += ["", *("  " + q for q in quoted)]
    lines += ["", "## FAQ"]
    for entry in c.get("faq") or []:
        lines += ["", f"### {_one_line(entry.get('question'))}", "",
                  str(entry.get("answer", "")).strip()]
        quoted = _quote(entry.get("evidence"))
        if quoted:
            lines += ["", *quoted]
    return "\n".join(lines)


def _mind_map(c: Mapping[str, Any]) -> str:
    root = from_dict(dict(c.get("root") or {}))
    mermaid = str(c.get("mermaid") or render_mermaid(root)).rstrip("\n")
    return "\n".join([f"# {_one_line(c.get('title'))}", "", "```mermaid", mermaid, "```", "",
                      outline(root)])


_RENDER = {"notes": _notes, "flashcards": _flashcards, "study_plan": _study_plan,
           "study_guide": _study_guide, "mind_map": _mind_map}


def artifact_markdown(kind: str, content: Mapping[str, Any]) -> str:
    """``content`` of a ``kind`` artifact as Markdown (ends with one newline)."""
    render = _RENDER.get(kind)
    if render is None:
        raise ValueError(f"{kind!r} is not a study artifact; use one of {', '.join(_RENDER)}.")
    return render(content).rstrip() + "\n"
