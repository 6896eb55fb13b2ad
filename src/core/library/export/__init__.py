"""Study exports built from the one graph: Anki notes and a Markdown (Obsidian) vault, as data.

Pure: what to write is decided here; the runtime writes the package and the files.
"""
