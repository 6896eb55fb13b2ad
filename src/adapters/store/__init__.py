"""Adapters: store."""
