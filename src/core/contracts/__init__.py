"""Contracts: pydantic models, one file per domain (chat, plan, graph, jobs, sources, settings)."""
