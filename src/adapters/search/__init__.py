"""Adapters: search."""
