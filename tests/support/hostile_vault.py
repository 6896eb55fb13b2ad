"""A vault built to hurt an importer: one note of ~20k headings (~600 KB, the size that held the
event loop for minutes, issue 27 F3) beside a few ordinary notes, and a test embedder that
works off the loop as the app's own encoder does (its own worker thread)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

from tests.support.embedder import HashEmbedder, hash_vector
from tests.support.notes import write

HOSTILE_NOTE = "Headings.md"
NORMAL_NOTES = ("Cells.md", "Energy.md", "Genes.md")


def many_headings(headings: int = 20_000) -> str:
    """``headings`` nested headings, every other one with a sentence: ~31 bytes a heading."""
    lines = ["# Headings", "", "A note that is almost nothing but headings, for the importer."]
    for i in range(headings):
        lines.append(f"{'#' * (2 + i % 3)} Part {i}")
        if i % 2 == 0:
            lines.append(f"The words of part {i} are here.")
    return "\n".join(lines) + "\n"


def make_hostile_vault(root: Path, headings: int = 20_000) -> Path:
    (root / ".obsidian").mkdir(parents=True, exist_ok=True)
    write(root, HOSTILE_NOTE, many_headings(headings))
    for name in NORMAL_NOTES:
        topic = name.removesuffix(".md")
        write(root, name, f"# {topic}\n\n{topic} is an ordinary note with a few words.\n\n"
                          f"## More on {topic}\n\n- One more line about {topic} here.\n"
                          f"- See [[{HOSTILE_NOTE.removesuffix('.md')}#Part 7]].\n")
    return root


class OffLoopHashEmbedder(HashEmbedder):
    """``HashEmbedder`` hashing in a worker thread: the app's encoder runs on a thread of its own,
    so a loop stall measured with this embedder is the importer's, not the test double's."""

    async def embed(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        self.batches.append(list(texts))
        return await asyncio.to_thread(lambda: [hash_vector(t) for t in texts])
