"""The learner's files: Obsidian notes parsed purely, links between them, source ids, course material."""
