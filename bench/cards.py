"""The model-free deck on a real-shaped vault, before and after issue 29's cards.

    .venv/bin/python bench/cards.py [--notes 173]

The vault is ``tests/support/card_vault.py``'s: ``--notes`` notes of the scale vault
(``bench/import.py``'s), the help vault and a study vault, imported with no model. Prints, for
the old prompts (one per topic, ``review_prompt`` over the topic's text) and for the deck:
cards, the share of cards whose front another card has, cards that answer their own subject,
clozes blanking a stop word, cards with raw wikilinks or Markdown — and the deck's build time
(best of three; the app builds it once per graph change).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.support


def _old_prompts(snapshot):
    from studyhall.core.library.learner.key_terms import STOP
    from studyhall.core.library.learner.prompts import TermWeights, review_prompt
    from studyhall.core.library.learner.statements import is_topic

    weights = TermWeights(n.text for n in snapshot.nodes)
    topics = [n for n in snapshot.nodes if is_topic(n)]
    prompts = [(n, review_prompt(n.text, weights)) for n in topics]
    fronts = Counter(p.prompt for _, p in prompts)
    return {
        "cards": len(prompts),
        "duplicate": sum(c for c in fronts.values() if c > 1) / max(1, len(prompts)),
        "self": sum(1 for n, p in prompts if p.answer.strip().casefold()
                    in p.prompt.casefold() or p.answer == n.text),
        "stop": sum(1 for _, p in prompts if p.kind == "cloze" and p.answer.lower() in STOP),
        "raw": sum(1 for _, p in prompts if "[[" in p.prompt + p.answer),
    }


def main(notes: int) -> None:
    from studyhall.core.library.learner.deck import Deck

    from tests.support.card_vault import deck_figures, import_card_vault

    with tempfile.TemporaryDirectory(prefix="studyhall-cards-") as tmp:
        started = time.perf_counter()
        snapshot = import_card_vault(Path(tmp), scale_notes=notes)
        print(f"vault: {len(snapshot.nodes)} topics imported in "
              f"{time.perf_counter() - started:.1f} s ({notes} scale notes + help + study)")
        old = _old_prompts(snapshot)
        print(f"before: {old['cards']} cards, duplicate fronts {old['duplicate']:.1%}, "
              f"answer their own subject {old['self']}, stop-word blanks {old['stop']}, "
              f"raw wikilinks {old['raw']}")
        seconds = []
        for _ in range(3):
            started = time.perf_counter()
            deck = Deck(snapshot.nodes)
            seconds.append(time.perf_counter() - started)
        f = deck_figures(deck)
        print(f"after:  {f.cards} cards on {f.carded} of {f.topics} topics "
              f"({f.topics - f.carded} left to Quiz me), duplicate fronts "
              f"{f.duplicate_share:.1%}, answer their own subject {f.self_answering}, "
              f"stop-word blanks {f.stop_blanks}, raw markup {f.raw_markup}, "
              f"prompts dropped as asked by two topics {deck.dropped}")
        one, five, _ = os.getloadavg()
        print(f"deck build: {min(seconds) * 1000:.0f} ms (best of 3; load {one:.1f}/{five:.1f} "
              f"on {os.cpu_count()} CPUs)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=173)
    main(parser.parse_args().notes)
