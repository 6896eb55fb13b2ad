"""Core system: agents."""
