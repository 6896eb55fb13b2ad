"""Source adapters: reading the learner's files — an Obsidian vault, plain text, PDFs, captions and
transcripts (with their cache), media and Anki packages.
"""
