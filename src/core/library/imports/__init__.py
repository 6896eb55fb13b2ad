"""Importing the learner's notes into the graph: the notes import's order and decisions
(``notes.py``, over ports and an ``OffLoop``), its two whole-vault phases (``phases.py``), and the
one progress and report type every importer shares (``report.py``)."""
