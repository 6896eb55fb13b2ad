"""Adapters: implementations of core ports for real technologies."""
