"""Core system: the library — imported sources, extraction into the one graph, the graph's read
side, retrieval, the learner model, upkeep (clusters, layout) and study exports.
"""
