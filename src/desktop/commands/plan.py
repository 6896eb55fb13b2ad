"""``studyhall plan check FILE``: parse a plan tree (the mermaid subset) and report.

Success: the plan as JSON on stdout — ``{"direction", "nodes": [{"id", "label", "shape"}],
"edges": [{"from", "to", "label", "kind"}]}`` — and exit 0. Problems: one ``line N, col M:
message`` per line on stdout and exit 1 (``--json`` prints ``{"errors": [...]}`` instead).
An unreadable file is a one-line message on stderr and exit 1. Never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from studyhall.core.classroom.plan_limits import MAX_TEXT_BYTES


def register(subparsers: Any) -> None:
    plan = subparsers.add_parser("plan", help="work with plan trees (the mermaid subset)")
    actions = plan.add_subparsers(dest="plan_command", metavar="ACTION", required=True)
    check = actions.add_parser(
        "check",
        help="parse a plan and print it as JSON, or its errors with line and column",
        description="Parse a plan tree written in the mermaid flowchart subset. Prints the "
        "plan as JSON and exits 0, or prints every error as 'line N, col M: message' and "
        "exits 1.",
    )
    check.add_argument("file", metavar="FILE", help="the plan file, or - to read stdin")
    check.add_argument("--json", action="store_true", help="print errors as JSON too")
    check.add_argument(
        "--groups",
        action="store_true",
        help="also print subgraphs: each node's 'group' and a top-level 'groups' list",
    )
    check.set_defaults(func=run_check)


def _read(name: str) -> str:
    """The plan text; ``OSError``/``UnicodeDecodeError``/``ValueError`` say what went wrong."""
    limit = MAX_TEXT_BYTES + 1  # enough to know it is too big without reading a huge file
    if name == "-":
        data = sys.stdin.buffer.read(limit)
    else:
        with Path(name).open("rb") as f:
            data = f.read(limit)
    if len(data) > MAX_TEXT_BYTES:
        raise ValueError(f"it is larger than the {MAX_TEXT_BYTES}-byte limit for a plan")
    return data.decode("utf-8")


def _emit(text: str) -> None:
    """Write UTF-8 whatever the terminal's locale; a reader that went away (``| head``) is
    not worth a traceback."""
    try:
        sys.stdout.buffer.write(text.encode("utf-8") + b"\n")
        sys.stdout.buffer.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so the interpreter's final flush is quiet too


def run_check(args: argparse.Namespace) -> int:
    source = "stdin" if args.file == "-" else args.file
    try:
        text = _read(args.file)
    except UnicodeDecodeError as e:
        print(
            f"studyhall plan check: cannot read {source}: it is not UTF-8 text (byte {e.start})",
            file=sys.stderr,
        )
        return 1
    except (OSError, ValueError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        print(f"studyhall plan check: cannot read {source}: {reason}", file=sys.stderr)
        return 1
    # Here, not at the top: every launch builds the parser, and the plan's shapes load pydantic.
    from studyhall.core.classroom.plan_json import plan_json
    from studyhall.core.classroom.plan_parser import parse_plan

    parsed = parse_plan(text)
    if parsed.plan is None:
        if args.json:
            errors = [{"line": e.line, "col": e.col, "message": e.message} for e in parsed.errors]
            _emit(json.dumps({"errors": errors}, ensure_ascii=False, indent=2))
        else:
            _emit("\n".join(str(e) for e in parsed.errors))
        return 1
    shown = plan_json(parsed.plan, groups="all" if args.groups else "none")
    _emit(json.dumps(shown, ensure_ascii=False, indent=2))
    return 0
