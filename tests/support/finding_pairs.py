"""Labelled finding/topic pairs the session-finding thresholds are calibrated on: pairs where the
finding belongs under the topic, and pairs apart (sharing only a stop word, one common word, or
nothing but a neighbourhood in an Obsidian help vault)."""

from __future__ import annotations

BELONG = [
    ("Backlinks list every note that links to the current note", "Backlinks: notes linking here"),
    ("A derivative measures the rate of change of a function", "Derivative of a function"),
    ("Mitochondria make ATP for the cell", "Mitochondria and cell energy"),
    ("Daily notes open a new note for each day", "Daily notes"),
    ("The French revolution began in 1789 with the Estates General", "French revolution"),
    ("Photosynthesis turns light into sugar in plant leaves", "Photosynthesis in plants"),
    ("A tree on n vertices has n - 1 edges.", "Graph trees: edges and vertices"),
    ("Trees have no cycles.", "Graph trees"),
    ("Pressing Ctrl+P opens the command palette", "Command palette"),
    ("Canvas lets you arrange notes on an infinite board", "Canvas"),
]
APART = [
    ("The mitochondria is the powerhouse of the cell", "The French revolution"),  # stop word
    ("Photosynthesis makes sugar in the leaf", "Sugar taxes in Europe"),  # one common word
    ("A note can link to another note", "Music notes and scales"),  # one common word
    ("Derivatives measure change", "Climate change policy"),  # one common word
    ("Tabs let you open files side by side", "Status bar"),
    ("Python lists are mutable", "Lists of French kings"),  # one common word
    ("Whales sing underwater.", "Graph trees"),
    ("Backlinks show which notes link here", "Tabs"),
    ("A note can link to another note", "Note composer"),  # one common word
    ("Bread rises because yeast makes gas", "Graph trees: edges and vertices"),
]
