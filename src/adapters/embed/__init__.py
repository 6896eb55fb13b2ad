"""Adapters: embed."""
