"""Adapters: sources."""
