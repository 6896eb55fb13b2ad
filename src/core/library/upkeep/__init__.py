"""Upkeep after the graph grew: the embedding cache, clusters and layout (all derived, recomputable)."""
