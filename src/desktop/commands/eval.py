"""``studyhall eval retrieval --questions FILE [--json]``: the retrieval eval over imported
material, with no model call (the calibrated-score path a learner without a key gets).

FILE is JSONL ``{"question", "gold": [path or path#anchor, ...], "answerable": bool}``.
Prints Recall@1, MRR, top-3, coverage accuracy and false citations (per ``"set"`` too when rows
name one); ``--json`` prints instead one line per question ``{"question", "case", "ranked"}``
(distinct links, best first). ``--material DIR`` imports DIR first (a convenience).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the command's module stays light: argparse only at start-up
    from studyhall.server.runtime.runtime import Runtime


def register(subparsers: Any) -> None:
    ev = subparsers.add_parser("eval", help="run an evaluation")
    kinds = ev.add_subparsers(dest="eval_command", metavar="KIND", required=True)
    ret = kinds.add_parser("retrieval", help="the retrieval eval: Recall@1, MRR, top-3, coverage, false citations")
    ret.add_argument("--questions", required=True, type=Path, metavar="FILE", help="JSONL questions with gold links")
    ret.add_argument("--json", action="store_true", help="one JSON line per question: question, case, ranked")
    ret.add_argument("--material", type=Path, metavar="DIR", help="import this folder first")
    ret.set_defaults(func=run_eval)


async def _run(args: argparse.Namespace, questions: list[Any], sets: list[str | None]) -> int:
    from studyhall.desktop.app_runtime import app_runtime

    async with app_runtime() as runtime:
        return await _evaluate(args, questions, sets, runtime)


async def _evaluate(args: argparse.Namespace, questions: list[Any], sets: list[str | None],
                    runtime: Runtime) -> int:
    from studyhall.core.library.retrieval.evaluation import (
        EvalOutcome,
        distinct_links,
        metrics,
    )
    ask = runtime.ask
    if args.material is not None:
        report = await runtime.library.index_material(str(args.material))
        print(f"imported {len(report.imported)}, unchanged {len(report.unchanged)}, "
              f"skipped {len(report.skipped)}", file=sys.stderr)
    if ask.passages() == 0:
        print("studyhall: nothing is imported yet. Run `studyhall import PATH` first "
              "(or pass --material DIR).", file=sys.stderr)
        return 1
    reindex = ask.search_notice()
    if reindex is not None:  # the numbers would measure words only: say so before them
        print(f"studyhall: note: {reindex.message}", file=sys.stderr)
    outcomes = []
    for q in questions:
        r = await ask.search(q.question)  # no model grades: the calibrated-score path
        outcome = EvalOutcome(q, r.case, distinct_links([h.chunk for h in r.hits]),
                              unconfirmed=r.unconfirmed)
        outcomes.append(outcome)
        if args.json:
            print(json.dumps({"question": q.question, "case": r.case,
                              "ranked": [c.link for c in outcome.ranked]}, ensure_ascii=False), flush=True)
    if args.json:
        return 0
    groups: dict[str | None, list[Any]] = {None: outcomes}
    for s, o in zip(sets, outcomes):
        if s is not None:
            groups.setdefault(s, []).append(o)
    print(f"{'set':16} {'n':>4} {'R@1':>6} {'MRR':>6} {'top-3':>6} {'cover':>6} {'false cit.':>10} "
          f"{'false abs.':>10}")
    for name, group in groups.items():
        m = metrics(group)
        print(f"{name or 'all':16} {m.questions:>4} {m.recall_at_1:>6.3f} {m.mrr:>6.3f} {m.top_3:>6.3f} "
              f"{m.coverage_accuracy:>6.3f} {m.false_citations:>4}/{m.unanswerable:<5} "
              f"{m.false_absences:>4}/{m.answerable:<5}")
    return 0


def run_eval(args: argparse.Namespace) -> int:
    from studyhall.core.library.retrieval.evaluation import parse_questions

    try:
        text = args.questions.read_text("utf-8")
        questions = parse_questions(text)
    except OSError as e:
        print(f"studyhall: cannot read {args.questions}: {e.strerror or e}", file=sys.stderr)
        return 1
    except (UnicodeDecodeError, ValueError) as e:
        print(f"studyhall: {args.questions}: {e}", file=sys.stderr)
        return 1
    if not questions:
        print(f"studyhall: {args.questions} has no questions.", file=sys.stderr)
        return 1
    sets = []
    for line in text.splitlines():
        if line.strip():
            row = json.loads(line)
            sets.append(row.get("set") if isinstance(row.get("set"), str) else None)
    return asyncio.run(_run(args, questions, sets))
