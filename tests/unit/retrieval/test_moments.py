"""Moments inside a lecture's passage: each cue's words keep their own second, so a sentence
deep in a minute-long passage opens the player where it is said, and the part of a passage said
before a second can be cut from it (Quiz me up to the learner's place)."""

from __future__ import annotations

from dataclasses import replace

from studyhall.core.contracts.material import MaterialFile, Segment
from studyhall.core.library.retrieval.chunking import chunk_material
from studyhall.core.library.retrieval.moments import moment_of, said_before

CUES = [(714.0, 720.0, "Now, on enzymes: point 120 of the lecture."),
        (720.0, 726.0, "Point 121, said slowly."),
        (738.0, 744.0, "ATP synthase turns like a rotor, step 1.")]


def _window():  # type: ignore[no-untyped-def]
    file = MaterialFile("l.vtt", "transcript", "Lecture", tuple(Segment(t, start=s, end=e) for s, e, t in CUES), 0, "x")
    [chunk] = chunk_material("lec", file)
    return chunk


def test_a_sentence_deep_in_a_window_has_the_second_its_cue_starts():
    chunk = _window()
    assert chunk.start == 714.0
    rotor = chunk.text.index("ATP synthase")
    assert moment_of(chunk, rotor) == 738.0
    assert moment_of(chunk, chunk.text.index("said slowly")) == 720.0  # inside a cue: its start
    assert moment_of(chunk, 0) == 714.0


def test_a_window_indexed_without_cues_gives_only_its_own_start():
    chunk = replace(_window(), cues=())
    assert moment_of(chunk, 0) == 714.0
    assert moment_of(chunk, chunk.text.index("ATP synthase")) is None  # never a guessed second
    assert moment_of(replace(chunk, start=None), 0) is None  # a page or a note: no moment


def test_the_part_said_before_a_second_stops_at_the_cue_starting_then():
    chunk = _window()
    assert said_before(chunk, 714.0) is None  # at the window's first second: nothing said yet
    assert said_before(chunk, 0.0) is None
    early = said_before(chunk, 730.0)
    assert early is not None and early.text == "Now, on enzymes: point 120 of the lecture. Point 121, said slowly."
    assert "ATP" not in " ".join(early.sentences) and early.end == 730.0
    assert said_before(chunk, 740.0) == chunk  # inside the last cue: all of it has begun
    assert said_before(chunk, 800.0) == chunk
    # Without cues a window counts only once it has ended.
    assert said_before(replace(chunk, cues=()), 730.0) is None
