"""Core system: library."""
