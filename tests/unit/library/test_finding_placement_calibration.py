"""The content-word threshold on the labelled pairs (``tests/support/finding_pairs.py``): every
pair apart stays apart (precision 1.0); the belonging pairs it misses share one stem only ("Trees
have no cycles." / "Graph trees") or name a one-word topic ("Canvas"), and go to the session
topic — safe, not wrong; embeddings, when present, judge those (``bench/finding_placement.py``)."""

from __future__ import annotations

from studyhall.core.library.extraction.finding_placement import about

from tests.support.finding_pairs import APART, BELONG


def test_about_separates_the_labelled_pairs_with_full_precision():
    assert not any(about(f, t) for f, t in APART)  # precision 1.0 on this set
    missed = [f for f, t in BELONG if not about(f, t)]
    # Recall 8/10: stems meet ("links"/"linking", "plants"/"plant"); these two do not.
    assert missed == ["Trees have no cycles.", "Canvas lets you arrange notes on an infinite board"]
