"""``studyhall ask "question" [--json]``: a grounded answer over imported material.

Retrieval always runs. With a model configured the answer streams with ``[n]`` citations that
map to the listed sources; with none (or ``--no-model``) it prints the coverage case and the
passages that may be cited. ``--json`` prints one object: ``{"question", "case", "unconfirmed", "answer",
"citations": [{"n", "link", "title", "text"}], "ranked": [link, ...], "removed_markers",
"notices": [{"kind", "message"}], "rewritten", "closest": {link: sentence}}``. A notice says what to do when the search ran degraded
(e.g. the index was embedded by another model than the current one: re-import).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the command's module stays light: argparse only at start-up
    from studyhall.core.contracts.ask_stream import AskSources
    from studyhall.core.contracts.asking import AskRequest
    from studyhall.core.library.retrieval.chunking import SourcePlace
    from studyhall.server.runtime.ask import AskDesk

CASE_TEXT = {
    "MATCH": "your material answers this",
    "RELATED": "your material is related, but does not answer it directly",
    "NO_MATCH": "your material does not cover this; nothing is cited",
    "IN_SOURCE": "answered from the source you are in",
    "IN_MOMENT": "about the moment on screen",
}
# NO_MATCH decided by scores alone while the nearest passages are close to the question.
UNCONFIRMED_TEXT = ("can't tell without a model: the nearest passages are close to the question; "
                    "read them to see if one answers it. Nothing is cited")


def register(subparsers: Any) -> None:
    ask = subparsers.add_parser("ask", help="ask a grounded question about your imported material")
    ask.add_argument("question", help="the question, in quotes")
    ask.add_argument("--json", action="store_true", help="print one JSON object")
    ask.add_argument("--no-model", action="store_true",
                     help="retrieval only: the coverage case and the passages, no model call")
    ask.add_argument("--source", dest="source_id", help="ask from inside this source (its id)")
    ask.add_argument("--t", type=float, help="the moment (seconds, 0 or more) in that source")
    ask.add_argument("--page", type=int, help="the page (1 or more) in that source")
    ask.set_defaults(func=run_ask)


# How each field of the shared ask request is spelled on this command line.
FLAGS = {"question": "the question", "source_id": "--source", "t": "--t", "page": "--page"}


def _request(args: argparse.Namespace) -> AskRequest:
    """The arguments as the ask request ``POST /api/ask`` takes, refused by the same rules."""
    from pydantic import ValidationError
    from studyhall.core.contracts.asking import AskRequest
    from studyhall.core.contracts.chat import MAX_QUESTION_CHARS
    from studyhall.desktop.failures import UsageError

    try:
        return AskRequest.model_validate(
            {"question": args.question, "source_id": args.source_id, "t": args.t,
             "page": args.page})
    except ValidationError as e:
        problems = []
        for err in e.errors():
            field = str(err["loc"][0]) if err["loc"] else ""
            if err["type"] == "string_unicode":
                problems.append(f"{FLAGS.get(field, field)} has bytes that are not UTF-8 "
                                "(check your terminal's or script's encoding)")
            elif field == "question" and err["type"] == "string_too_long":
                problems.append(f"the question is over {MAX_QUESTION_CHARS:,} characters")
            elif field == "source_id":
                problems.append("--source takes a source id such as note_3f9a2b…, not a path "
                                "(`studyhall sources --json` lists them)")
            elif field:
                problems.append(f"{FLAGS.get(field, field)}: {err['msg'].lower()}")
            else:
                problems.append(err["msg"].removeprefix("Value error, ").replace(
                    "(source_id)", "(--source)"))
        raise UsageError("; ".join(problems) + ".") from None


async def _collect(args: argparse.Namespace, request: AskRequest, live: bool) -> dict[str, Any]:
    from studyhall.desktop.app_runtime import app_runtime

    async with app_runtime() as runtime:
        position = runtime.ask.position(request)
        return await _answer(args, live, runtime.ask, position)


async def _answer(args: argparse.Namespace, live: bool, desk: AskDesk,
                  position: SourcePlace | None) -> dict[str, Any]:
    from studyhall.core.contracts.ask_stream import (
        AskFinish,
        AskNavigate,
        AskSources,
        AskSuggest,
        AskTextDelta,
    )
    from studyhall.core.contracts.stream import StreamError

    out: dict[str, Any] = {"question": args.question, "answer": None, "citations": [],
                           "suggest": [], "navigate": None, "notices": []}
    text: list[str] = []
    async for event in desk.answer(args.question, position, use_model=not args.no_model):
        if isinstance(event, AskSources):
            out["case"] = event.case
            out["unconfirmed"] = event.unconfirmed
            out["citations"] = [{"n": s.n, "link": s.link, "title": s.title, "text": s.text}
                                for s in event.sources]
            out["notices"] = [n.model_dump() for n in event.notices]
            out["rewritten"] = event.rewritten
            if live:
                _print_sources(event)
        elif isinstance(event, AskSuggest):
            out["suggest"] = [m.link for m in event.moments]
        elif isinstance(event, AskNavigate):
            out["navigate"] = event.link
        elif isinstance(event, AskTextDelta):
            text.append(event.text)
            if live:
                sys.stdout.write(event.text)
                sys.stdout.flush()
        elif isinstance(event, AskFinish):
            out["ranked"] = event.ranked
            out["answer"] = "".join(text) if event.answered else None
            out["removed_markers"] = event.removed_markers or 0
            out["model_note"] = None if event.answered else event.reason
            # With no answer: where to read first in each listed passage (link -> sentence).
            out["closest"] = {p.link: p.closest for p in event.passages or () if p.closest}
        elif isinstance(event, StreamError):
            out["error"] = event.message
    return out


def _print_sources(event: AskSources) -> None:
    for notice in event.notices:
        print(f"Note: {notice.message}", file=sys.stderr)
    if event.rewritten:
        print(f"(also searched as: {event.rewritten})")
    words = UNCONFIRMED_TEXT if event.unconfirmed else CASE_TEXT.get(event.case, "")
    print(f"{event.case}: {words}")
    for s in event.sources:
        snippet = " ".join(s.text.split())
        print(f"  [{s.n}] {s.link}\n      {snippet[:300]}")
    print()


def run_ask(args: argparse.Namespace) -> int:
    request = _request(args)
    args.question = request.question.strip()
    out = asyncio.run(_collect(args, request, live=not args.json))
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
    else:
        if out.get("answer"):
            print()
        for link in out["suggest"]:
            print(f"Jump to: {link}")
        if out["navigate"]:
            print(f"Go to: {out['navigate']}")
        if out.get("answer") is None and out.get("model_note") and not args.no_model:
            print(f"(No answer written: {out['model_note']})")
        if out.get("case") == "NO_MATCH" and out.get("ranked"):
            # Not citations: without a model Studyhall cannot verify these answer the question.
            print("Nearest passages (not cited; check them yourself):")
            for link in out["ranked"][:3]:
                print(f"  {link}")
                if link in out.get("closest", {}):
                    print(f"      closest to your question: “{out['closest'][link]}”")
    if out.get("error"):
        print(f"studyhall: {out['error']}", file=sys.stderr)
        return 1
    return 0
