"""Core system: workbench."""
