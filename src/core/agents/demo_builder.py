"""The demo builder (role ``demo_builder``): one self-contained interactive HTML page per idea.

Every answer is loaded in the sandbox (headless browser, network off) before it can be
delivered; console errors, uncaught exceptions, blocked requests and a blank page go back to
the builder, who answers with the whole corrected page, at most ``attempts`` times.
"""

from __future__ import annotations

import html as html_lib
import re
from collections.abc import Mapping
from typing import Any

from studyhall.core.agents.builder import ATTEMPTS, Built, build_verified
from studyhall.core.ports.models import ChatModel
from studyhall.core.ports.sandbox import Sandbox
from studyhall.core.workbench.checks import page_problems
from studyhall.core.workbench.documents import extract_html

PROMPT_NAME = "demo_builder.md"
FIX = ("Fix every problem and answer with the whole corrected HTML document in one ```html "
       "block.")

_TITLE = re.compile(r"<title[^>]*>(.*?)</title>", re.IGNORECASE | re.DOTALL)
_DESCRIPTION = re.compile(
    r"<meta\s+[^>]*name\s*=\s*[\"']description[\"'][^>]*content\s*=\s*[\"'](.*?)[\"']", re.IGNORECASE | re.DOTALL)


def _plain(text: str, limit: int) -> str:
    text = " ".join(html_lib.unescape(re.sub(r"<[^>]+>", "", text)).split())
    return text[:limit]


def describe_page(page: str) -> tuple[str | None, str | None]:
    """The page's ``<title>`` and ``<meta name="description">`` (what the teacher is told)."""
    title = _TITLE.search(page)
    description = _DESCRIPTION.search(page)
    return (_plain(title.group(1), 120) if title else None) or None, \
        (_plain(description.group(1), 600) if description else None) or None


def demo_request(job_input: Mapping[str, Any]) -> str:
    return (f"Concept: {job_input.get('concept', '')}\n\n"
            f"What the learner should be able to do and see:\n{job_input.get('brief', '')}")


async def build_demo(model: ChatModel, sandbox: Sandbox, prompt: str,
                     job_input: Mapping[str, Any], attempts: int = ATTEMPTS) -> Built[dict[str, Any]]:
    async def verify(page: str) -> list[str]:
        return page_problems(await sandbox.check_page(page))

    built = await build_verified(
        model, "demo_builder",
        [{"role": "system", "content": prompt.strip()},
         {"role": "user", "content": demo_request(job_input)}],
        read=extract_html, verify=verify, what="demo", fix=FIX, attempts=attempts,
    )
    title, description = describe_page(built.value)
    result = {
        "title": title or str(job_input.get("concept", "Demo")),
        "description": description,
        "html": built.value,
        "fixed": [list(p) for p in built.history],  # what earlier rounds got wrong
    }
    return Built(result, built.attempts, built.text, built.history)
