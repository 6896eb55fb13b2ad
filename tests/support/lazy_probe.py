"""Imported lazily by tests/flows/test_lazy_route_groups.py: runs only when first used."""

LOADED = True
