"""Studyhall: a local-first desktop learning app (the folder ``src/`` is the package)."""

__version__ = "0.1.0"
