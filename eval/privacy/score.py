"""Score the PII scrubber on the labelled set: per-type recall and precision.

Run: ``.venv/bin/python eval/privacy/score.py [--show-errors]``. The targets for the
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


def scores() -> dict[str, TypeScore]:
    return score_pii(load_cases(), detect)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show-errors", action="store_true", help="list misses and false finds")
    args = parser.parse_args()
    table = scores()
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
