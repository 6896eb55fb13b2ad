"""Adapters: llm."""
