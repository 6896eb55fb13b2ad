"""Score the PII scrubber on the labelled set: per-type recall and precision.

Run: ``.venv/bin/python eval/privacy/score.py [--show-errors] [--held-out [--by-locale]]``. The targets for the
structured types (recall >= 0.95, precision >= 0.9) are asserted by
``tests/unit/guardrails/test_guardrail_evals.py``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from studyhall.core.guardrails.evaluation import Gold, PiiCase, TypeScore, score_pii
from studyhall.core.guardrails.scrubber import detect

SET = Path(__file__).with_name("pii_set.jsonl")


def load_cases(path: Path = SET) -> list[PiiCase]:
    cases = []
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        gold = tuple(Gold(e["type"], e["start"], e["end"], e.get("group"))
                     for e in row["entities"])
        cases.append(PiiCase(row["id"], row["text"], gold))
    return cases


HELD_OUT = Path(__file__).with_name("presidio_set.jsonl")  # see make_presidio_set.py
FRESH = Path(__file__).with_name("presidio_fresh.jsonl")  # scored once, never tuned on


def scores(path: Path = SET) -> dict[str, TypeScore]:
    return score_pii(load_cases(path), detect)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show-errors", action="store_true", help="list misses and false finds")
    parser.add_argument("--held-out", action="store_true",
                        help="score presidio-evaluator's public set (per-locale rows) instead")
    parser.add_argument("--fresh", action="store_true",
                        help="score the second public set (other seed and locales) instead")
    parser.add_argument("--by-locale", action="store_true", help="with --held-out: every locale row")
    args = parser.parse_args()
    table = scores(FRESH if args.fresh else HELD_OUT if args.held_out else SET)
    if (args.held_out or args.fresh) and not args.by_locale:
        table = {k: v for k, v in table.items() if "/" not in k}
    print(f"{'type':18} {'gold':>5} {'found':>6} {'recall':>7} {'precision':>9} {'exact':>7}")
    for name, s in table.items():
        precision = f"{s.precision:>9.3f}" if "/" not in name else f"{'':>9}"
        print(f"{name:18} {s.gold:>5} {s.found:>6} {s.recall:>7.3f} {precision} "
              f"{s.exact_recall:>7.3f}")
        if args.show_errors:
            for miss in s.misses:
                print(f"    miss  {miss}")
            for false in s.false:
                print(f"    false {false}")


if __name__ == "__main__":
    main()
