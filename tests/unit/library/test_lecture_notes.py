"""A lecture or PDF written as a note for the model-free topic path: a heading per key moment
(with its clock time) or page, the passages' words under it, and words that would parse as
Markdown (a heading, a list, a wikilink) kept as plain text."""

from __future__ import annotations

import time

from studyhall.core.contracts.search import Chunk
from studyhall.core.library.imports.lectures import LectureFile, lecture_note


def _cue(i: int, start: float, text: str, kind: str = "transcript") -> Chunk:
    return Chunk(id=f"s:{i}", source_id="s", path="l.vtt", kind=kind, title="Lecture 07 GC",
                 anchor=f"t={int(start)}", text=text, start=start, end=start + 50)


def test_a_transcript_has_its_title_and_a_clock_heading_per_moment() -> None:
    words = ["garbage collection roots marking", "reference counting cycles counts",
             "generational hypothesis young objects"]
    chunks = [_cue(i, i * 60.0, f"{words[i // 6]} sentence {i}.") for i in range(18)]
    doc = lecture_note(LectureFile("transcript", "l.vtt", "Course"), chunks)
    assert doc is not None and doc.title == "Lecture 07 GC"
    headings = [s.heading for s in doc.sections if s.heading]
    assert headings and headings[0].startswith("0:00 · ")
    assert all(" · " in h for h in headings)
    text = "\n".join(doc.lines)
    assert all(c.text in text for c in chunks)  # every passage's words, once


def test_a_pdf_has_a_heading_per_page() -> None:
    chunks = [Chunk(id=f"p:{n}", source_id="p", path="c.pdf", kind="pdf", title="Chapter 5",
                    anchor=f"page={n}", text=f"Page {n} text about respiration.", page=n)
              for n in (1, 2, 3)]
    doc = lecture_note(LectureFile("pdf", "c.pdf", "Course"), chunks)
    assert doc is not None
    assert [s.heading for s in doc.sections if s.heading] == ["Page 1", "Page 2", "Page 3"]


def test_spoken_words_never_become_markup() -> None:
    hostile = "# not a heading\n- not a list\n[[Not a link]] and ![[embed.png]]\n```\ncode?"
    doc = lecture_note(LectureFile("transcript", "l.vtt", "Course"), [_cue(0, 0.0, hostile)])
    assert doc is not None
    assert doc.links == ()  # no wikilink or embed
    headings = [s.heading for s in doc.sections if s.heading]
    assert len(headings) == 1 and headings[0].startswith("0:00 · ")  # the moment's, only
    assert not doc.code_lines


def test_nothing_indexed_makes_no_note_and_a_huge_lecture_is_quick() -> None:
    assert lecture_note(LectureFile("transcript", "l.vtt", "Course"), []) is None
    chunks = [_cue(i, i * 8.0, f"term{i % 97} words of a long lecture, cue {i}.") for i in range(3000)]
    started = time.perf_counter()
    doc = lecture_note(LectureFile("transcript", "l.vtt", "Course"), chunks)
    assert doc is not None and time.perf_counter() - started < 10
