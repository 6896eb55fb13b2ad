"""The labelled set ``about``'s threshold was chosen on: finding/topic pairs that belong and
pairs that do not (sharing only a stop word, or one common word)."""

from __future__ import annotations

from studyhall.core.library.extraction.topic_anchoring import about

BELONG = [
    ("Backlinks list every note that links to the current note", "Backlinks: notes linking here"),
    ("A derivative measures the rate of change of a function", "Derivative of a function"),
    ("Mitochondria make ATP for the cell", "Mitochondria and cell energy"),
    ("Daily notes open a new note for each day", "Daily notes"),
    ("The French revolution began in 1789 with the Estates General", "French revolution"),
    ("Photosynthesis turns light into sugar in plant leaves", "Photosynthesis in plants"),
]
APART = [
    ("The mitochondria is the powerhouse of the cell", "The French revolution"),  # stop word
    ("Photosynthesis makes sugar in the leaf", "Sugar taxes in Europe"),  # one common word
    ("A note can link to another note", "Music notes and scales"),  # one common word
    ("Derivatives measure change", "Climate change policy"),  # one common word
    ("Tabs let you open files side by side", "Status bar"),
    ("Python lists are mutable", "Lists of French kings"),  # one common word
]


def test_about_separates_the_labelled_pairs_with_full_precision():
    hits = [about(f, t) for f, t in BELONG]
    false = [about(f, t) for f, t in APART]
    assert not any(false)  # precision 1.0 on this set
    # Recall on this set is 4/6: without stemming "links"/"linking" and "plant"/"plants" do
    # not match, so those two share one word and go to the session topic (safe, not wrong).
    assert sum(hits) >= 4
