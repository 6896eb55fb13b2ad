"""The visual maker (role ``visual_maker``): one SVG diagram per request, checked twice.

First statically (it must parse and be inert and self-contained: ``workbench.svg_check``),
then drawn in the sandbox and looked at: a blank or single-colour picture is a failure. The
maker gets every problem back and answers with the whole corrected SVG, at most ``attempts``
times.
"""

from __future__ import annotations

import html as html_lib
import re
from collections.abc import Mapping
from typing import Any

from studyhall.core.agents.builder import ATTEMPTS, Built, build_verified
from studyhall.core.ports.models import ChatModel
from studyhall.core.ports.sandbox import Sandbox
from studyhall.core.workbench.checks import render_problems
from studyhall.core.workbench.documents import extract_svg
from studyhall.core.workbench.svg_check import check_svg

PROMPT_NAME = "visual_maker.md"
FIX = "Fix every problem and answer with the whole corrected SVG in one ```svg block."

_TITLE = re.compile(r"<title[^>]*>(.*?)</title>", re.IGNORECASE | re.DOTALL)
_DESC = re.compile(r"<desc[^>]*>(.*?)</desc>", re.IGNORECASE | re.DOTALL)


def _first(pattern: re.Pattern[str], svg: str, limit: int) -> str | None:
    match = pattern.search(svg)
    if match is None:
        return None
    text = " ".join(html_lib.unescape(re.sub(r"<[^>]+>", "", match.group(1))).split())
    return text[:limit] or None


def visual_request(job_input: Mapping[str, Any]) -> str:
    brief = job_input.get("brief")
    return f"Diagram of: {job_input.get('subject', '')}" + (f"\n\nIt must make clear:\n{brief}"
                                                            if brief else "")


def _read(text: str) -> str:
    svg = extract_svg(text)
    checked = check_svg(svg)
    if checked.problems:
        raise ValueError("; ".join(checked.problems))
    return checked.svg


async def make_visual(model: ChatModel, sandbox: Sandbox, prompt: str,
                      job_input: Mapping[str, Any], attempts: int = ATTEMPTS) -> Built[dict[str, Any]]:
    renders: dict[str, Any] = {}

    async def verify(svg: str) -> list[str]:
        render = await sandbox.render_svg(svg)
        renders[svg] = render
        return render_problems(render)

    built = await build_verified(
        model, "visual_maker",
        [{"role": "system", "content": prompt.strip()},
         {"role": "user", "content": visual_request(job_input)}],
        read=_read, verify=verify, what="diagram", fix=FIX, attempts=attempts,
    )
    render = renders[built.value]
    result = {
        "title": _first(_TITLE, built.value, 120) or str(job_input.get("subject", "Diagram")),
        "description": _first(_DESC, built.value, 600),
        "svg": built.value,
        "render": {"width": render.width, "height": render.height, "colours": render.colours},
        "fixed": [list(p) for p in built.history],
    }
    return Built(result, built.attempts, built.text, built.history)
