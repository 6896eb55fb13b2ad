"""Core system: classroom."""
