"""Adapters: sandbox."""
