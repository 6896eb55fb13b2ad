"""Grounded retrieval over imported material: chunks, hybrid search, match cases, the eval."""
