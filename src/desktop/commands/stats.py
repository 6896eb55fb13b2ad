"""``studyhall stats [--json]``: learning statistics — mastery over the last 30 days, reviews
due per day for the next 30 (caps applied), retention achieved against the target.

``--json`` prints the ``GET /api/stats`` object; without it, plain text tables.
"""

from __future__ import annotations

import argparse
import json
from typing import Any


def register(subparsers: Any) -> None:
    stats = subparsers.add_parser("stats", help="print mastery, reviews due and retention")
    stats.add_argument("--json", action="store_true", help="print the GET /api/stats object")
    stats.set_defaults(func=run_stats)


def _bar(value: float, width: int = 20) -> str:
    return "#" * round(max(0.0, min(1.0, value)) * width)


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _plural(n: int, one: str) -> str:
    return f"{n} {one}" + ("" if n == 1 else "s")


def _graph_size(totals: dict[str, Any]) -> str:
    """The graph in the map's words, as the window says it: "36 topics", "4 topics and 9 ideas"."""
    topics = int(totals["topics"])
    ideas = int(totals["nodes"]) - topics
    if not topics:
        return _plural(ideas, "idea")
    return f"{_plural(topics, 'topic')} and {_plural(ideas, 'idea')}" if ideas else _plural(topics, "topic")


def run_stats(args: argparse.Namespace) -> int:
    from studyhall.desktop.commands.review import read

    stats = read("stats")
    if args.json:
        print(json.dumps(stats, ensure_ascii=False))
        return 0
    t = stats["totals"]
    print(f"In your graph: {_graph_size(t)} ({t['solid']} solid, {t['shaky']} shaky, "
          f"{t['corrected-misconception']} corrected, {t['not-tried']} not tried); "
          f"{t['due_today']} due today, {t['overdue']} overdue")
    print("\nMastery (mean of the topics and ideas tried), last 10 days (--json: 30)")
    print(f"  {'date':<10}  {'mean':>5}  {'solid':>5}  {'tried':>5}")
    for day in stats["mastery_over_time"][-10:]:
        mean = day["mean"]
        print(f"  {day['date']:<10}  {_number(mean):>5}  {day['solid']:>5}  {day['tried']:>5}  "
              f"{_bar(mean or 0.0)}")
    print("\nReviews due, next 30 days (planned under the daily caps)")
    print(f"  {'date':<10}  {'due':>5}  {'planned':>7}")
    for day in stats["reviews_due"]:
        if day["due"] or day["planned"]:
            print(f"  {day['date']:<10}  {day['due']:>5}  {day['planned']:>7}")
    kept = stats["retention"]
    print(f"\nRetention: {_number(kept['achieved'])} achieved in {kept['reviews']} scheduled "
          f"reviews (target {kept['target']:.2f})")
    for topic in stats["topics"]:
        print(f"  topic {topic['label'] or topic['id']}: {_number(topic['mastery'])} "
              f"({topic['state']}, {topic['tried']}/{topic['parts']} tried)")
    return 0
