"""Anki fidelity: a real collection made with the official ``anki`` package (answers at every
hour, cram and manual rows, a kana deck, a deck with its own FSRS options) imported, and each
card's FSRS stability compared with Anki's own (``compute_memory_state``).

    .venv/bin/python bench/anki_fidelity.py [--cards 200] [--seed 32] [--rollover 4]

Prints the median and worst relative difference for Studyhall's replay (learner days) and, as
the baseline, for the same answers replayed on 24-hour spans (the ``fsrs`` package as is).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.support


def _figures(name: str, found: list[float]) -> None:
    print(f"{name:<28} median {statistics.median(found) * 100:7.4f} %   "
          f"worst {max(found) * 100:7.4f} %   ({len(found)} cards)")


async def _run(args: argparse.Namespace, tmp: Path) -> None:
    from studyhall.core.library.extraction.merger import node_id_for

    from tests.support.real_anki import fidelity_collection
    from tests.support.session_api import scripted_app

    built = fidelity_collection(tmp, cards=args.cards, seed=args.seed, rollover=args.rollover)
    async with scripted_app(None) as (api, runtime):
        await api.http.put("/api/settings/review", json={"day_starts_hour": args.rollover})
        report = await runtime.library.import_here(str(built.path), embed=False)
        print(f"imported: {report.anki}")
        model = runtime.learner.model()
        ours, spans = [], []
        for statement, theirs in built.stability.items():
            node = node_id_for(statement)
            ours.append(abs(model.card(node).card.stability - theirs) / theirs)
            # The baseline: the same grades fed to the package at their real times.
            grades = model.learner.graded(node)
            spans.append(abs(_spans(grades, model.limits.rules(node)) - theirs) / theirs)
    _figures("learner days (Studyhall)", ours)
    _figures("24-hour spans (baseline)", spans)


def _spans(grades, rules) -> float:
    """The stability the ``fsrs`` package gives when fed the answers' real times."""
    from fsrs import Card, Rating
    from studyhall.core.library.learner.cards import scheduler, utc

    s = scheduler(rules.desired_retention, rules.parameters)
    ordered = sorted(grades)
    card = Card(card_id=0, due=utc(ordered[0].at))
    for at, grade in ordered:
        card, _ = s.review_card(card, Rating[grade.capitalize()], utc(at))
    return float(card.stability)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=200)
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--rollover", type=int, default=4)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="anki-fidelity-"))
    os.environ["STUDYHALL_DATA_DIR"] = str(tmp / "data")
    os.environ.pop("STUDYHALL_SCRIPT", None)
    asyncio.run(_run(args, tmp))


if __name__ == "__main__":
    main()
