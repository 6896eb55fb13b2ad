"""Chunks respect structure and every chunk has a deep link that finds its place."""

from __future__ import annotations

from studyhall.core.contracts.material import MaterialFile, Segment
from studyhall.core.library.retrieval.chunking import (
    SourcePlace,
    chunk_at,
    chunk_material,
    markdown_segments,
    slugify,
    split_sentences,
)


def chunk_note(source_id: str, path: str, title: str, text: str) -> list:
    """A Markdown note as the text reader hands it to the chunker (``adapters/sources/text.py``)."""
    return chunk_material(source_id, MaterialFile(path, "note", title, markdown_segments(text),
                                                  len(text), "h"))


def _transcript(n: int, words: int = 12, step: float = 5.0) -> MaterialFile:
    cues = tuple(Segment(" ".join([f"w{i}"] * words) + ".", start=i * step, end=i * step + 4.0) for i in range(n))
    return MaterialFile("lec/one.vtt", "transcript", "one", cues, 100, "h")


def test_transcript_chunks_are_cue_windows_linked_by_their_first_second():
    chunks = chunk_material("src", _transcript(40))
    assert len(chunks) > 1
    for chunk in chunks:
        assert chunk.anchor == f"t={int(chunk.start)}"
        assert chunk.link == f"lec/one.vtt#t={int(chunk.start)}"
        assert chunk.end is not None and chunk.end > chunk.start
        assert len(chunk.text.split()) <= 110
    # windows tile the lecture in order, no cue lost
    assert [c.start for c in chunks] == sorted(c.start for c in chunks)
    assert sum(len(c.text.split()) for c in chunks) == 40 * 12


def test_a_long_pause_or_span_starts_a_new_window():
    chunks = chunk_material("src", _transcript(6, words=3, step=40.0))
    assert len(chunks) >= 3  # 6 short cues, but spread over 200+ seconds


def test_a_single_chunk_transcript_still_links_to_its_moment():
    chunks = chunk_material("src", _transcript(1))
    assert chunks[0].link == "lec/one.vtt#t=0"


def test_pdf_chunks_keep_their_page_number():
    pages = (Segment("Slow start doubles the window.", page=1), Segment("Loss halves it.", page=3))
    chunks = chunk_material("p", MaterialFile("h.pdf", "pdf", "h", pages, 10, "x"))
    assert [c.link for c in chunks] == ["h.pdf#page=1", "h.pdf#page=3"]
    assert [c.page for c in chunks] == [1, 3]


def test_notes_chunk_by_heading_with_github_slugs_and_repeats_numbered():
    text = "---\ntags: [a]\n---\n# Big-O notation\n\nIntro.\n\n## Hash tables\n\nO(1).\n\n## Hash tables\n\nAgain.\n```\n# not a heading\n```\n"
    chunks = chunk_note("n", "notes/algo.md", "algo", text)
    assert [c.anchor for c in chunks] == ["big-o-notation", "hash-tables", "hash-tables-1"]
    assert "# not a heading" in chunks[-1].text
    assert all("tags" not in c.text for c in chunks)


def test_a_file_that_fits_one_chunk_is_linked_by_its_bare_path():
    chunks = chunk_note("n", "squad/normans-00.md", "Normans", "# Normans\n\nThe Normans were a people.")
    assert [c.link for c in chunks] == ["squad/normans-00.md"]
    plain = chunk_material("t", MaterialFile("a.txt", "text", "a", (Segment("One paragraph."),), 5, "h"))
    assert plain[0].link == "a.txt"


def test_long_sections_split_at_paragraphs_then_sentences():
    para = " ".join(f"Sentence number {i} is here." for i in range(120))  # ~600 words
    chunks = chunk_note("n", "long.md", "long", f"# Long\n\n{para}")
    assert len(chunks) >= 2
    assert all(len(c.text.split()) <= 300 for c in chunks)
    assert all(c.anchor == "long" for c in chunks)


def test_slugs_and_sentences():
    assert slugify("Amortized analysis (why?)") == "amortized-analysis-why"
    assert split_sentences("It halves. Then it (maybe) doubles! Ok") == ("It halves.", "Then it (maybe) doubles!", "Ok")


def test_chunk_at_finds_the_window_on_screen():
    chunks = chunk_material("src", _transcript(40))
    second = chunks[1]
    assert chunk_at(chunks, SourcePlace("src", t=second.start + 1)) == second
    assert chunk_at(chunks, SourcePlace("src", t=0)) == chunks[0]
    assert chunk_at(chunks, SourcePlace("other", t=5)) is None
