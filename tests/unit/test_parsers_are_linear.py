"""Untrusted text costs time linear in its size: adversarial strings (openers repeated with
nothing to close them, nested brackets, names after titles, one-megabyte lines) through every
text parser a note or a message meets — ``plain``, ``parse_note``, the PII scrubber and the
key redaction — each within a time bound per kilobyte.

The bounds are generous: ~10x what a quiet machine needs, so a loaded 2-core box passes, and
far below what the old code took on the same inputs (it was quadratic or worse: ``plain`` on
a 12 KB heading of "[[" took 10 s, a note line "[a](" + 20,000 spaces 9 s, the scrubber on
"Dr. Ab " x 30,000 over 30 s, i.e. 50-500 ms per KB and rising with the size).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from studyhall.core.guardrails.scrubber import scrub
from studyhall.core.library.sources.notes.document import parse_note
from studyhall.core.library.sources.notes.markup_scan import MAX_MARKUP
from studyhall.core.library.sources.notes.prose import plain, readable, sentences
from studyhall.core.redaction import mask_key_shapes

OPENERS = ["[[", "[", "](", "**", "_", "~~", "`", "%%", "![[", "#", "<", "![", "[^", "__", "==",
           "*", "``", "[a](", "[[a|", "[[a#", "\\", "> ", "- ", "1. ", "|", "&#", "```"]
FILLERS = ["", " ", "a", "\n", "  ", "a b", "\t"]
PII_UNITS = ["Dr. Ab ", "Mr. A. B. ", "my friend Ab ", "Regards, Ab ", "1 Aa Street ", "a@",
             "a.a@a.", "+1 ", "4111 ", "192.168.", "::", "0117 ", "SSN ", "Ab Cd ", "van "]
KEY_UNITS = ["bearer ", "token=", "api_key: ", "sk-", "key-", "\"token\": \"", " ", "AIza"]
SETTINGS = settings(max_examples=12, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@st.composite
def hostile(draw: st.DrawFn, units: list[str], size: int) -> str:
    """One or two units repeated (with a filler between) up to ``size`` characters, or one
    unit then a long run of one filler ("[a](" + spaces); maybe nested inside brackets, maybe
    after a heading marker."""
    unit = draw(st.sampled_from(units))
    filler = draw(st.sampled_from([f for f in FILLERS if f]))
    if draw(st.booleans()):
        text = unit + filler * (size // len(filler))
    else:
        unit += draw(st.sampled_from(FILLERS))
        if draw(st.booleans()):
            unit += draw(st.sampled_from(units))
        text = unit * max(1, size // len(unit))
    if draw(st.booleans()):
        depth = draw(st.integers(1, size // 4))
        text = "[" * depth + text + "]" * draw(st.integers(0, depth))
    return draw(st.sampled_from(["", "# ", "- ", "> "])) + text[:size]


def _seconds(run: Callable[[str], object], text: str) -> float:
    # This thread's CPU time, not the wall clock: on a loaded 2-core box a linear parser can
    # wait seconds for a core, while a quadratic one still burns its CPU seconds here.
    started = time.thread_time()
    run(text)
    return time.thread_time() - started


def _within(run: Callable[[str], object], text: str, ms_per_kb: float) -> None:
    kb = max(1.0, len(text) / 1024)
    took = _seconds(run, text)
    assert took <= ms_per_kb * kb / 1000, f"{took:.2f} s for {kb:.0f} KB ({text[:40]!r}...)"


@SETTINGS
@given(hostile(OPENERS, MAX_MARKUP))
@example("# " + "[[" * 9_999)  # the heading (F2), at the markup bound
def test_plain_reads_hostile_markup_in_linear_time(text: str) -> None:
    # Quiet: ~1 ms per KB (1.5 at worst, on backticks). The old rules took 10 s on 12 KB of
    # "[[" (~800 ms per KB) and 39 s on this 20 KB example.
    _within(plain, text, ms_per_kb=40)
    _within(sentences, text, ms_per_kb=40)
    _within(readable, text, ms_per_kb=40)  # a note's passage as Ask and Quiz me show it


def test_a_passage_of_many_hostile_lines_reads_in_linear_time() -> None:
    # Each line is read on its own (``plain`` per line): many lines at the markup bound.
    lines = "\n".join(f"- **{'[[' * (MAX_MARKUP // 2)}" for _ in range(40))
    _within(readable, lines, ms_per_kb=40)


def test_plain_of_a_one_megabyte_line_reads_markup_in_its_first_part_only() -> None:
    line = "[[" * 500_000
    # Quiet: ~20 ms in all (the markup bound); the old rules would run for hours.
    _within(plain, line, ms_per_kb=1)
    assert plain("**a** " + line).startswith("a [[[[")


@SETTINGS
@given(hostile(OPENERS, 128 * 1024), st.integers(1, 4))
@example("[a](" + " " * 60_000 + "x", 2)
def test_a_hostile_note_parses_in_linear_time(text: str, copies: int) -> None:
    # ``copies`` lines of the hostile text, so runs of lines and lines past the markup bound
    # both occur. Quiet: ~4 ms per KB (markdown-it's block parse is most of it); the old
    # link pattern took 450 ms per KB on "[a](" + spaces, and more the longer the line.
    note = "\n".join([text] * copies)
    _within(lambda t: parse_note("hostile.md", t), note, ms_per_kb=60)


def test_a_note_of_a_one_megabyte_line_parses_in_linear_time() -> None:
    for line in ("[[" * 500_000, "[a](" + " " * 1_000_000 + "x", "` `` ``` " * 100_000):
        _within(lambda t: parse_note("hostile.md", t), line, ms_per_kb=20)


def test_many_linked_lines_parse_in_linear_time() -> None:
    # 20,000 lines, each with a link, in one run of lines: each link's line was found by a
    # walk from the run's top (~n²: minutes); quiet ~0.7 s.
    note = "\n".join(f"[[Note {i}]] and [text](Other%20{i}.md)" for i in range(20_000))
    _within(lambda t: parse_note("hostile.md", t), note, ms_per_kb=15)


@SETTINGS
@given(hostile(PII_UNITS, 64 * 1024))
@example("Dr. Ab " * 9_362)  # 64 KB of the input
def test_the_pii_scrubber_is_linear_on_hostile_text(text: str) -> None:
    # Quiet: ~2 ms per KB. The old overlap check was ~n² in the findings (~70 ms per KB
    # on 64 KB of "Dr. Ab ").
    _within(scrub, text, ms_per_kb=30)


def test_the_pii_scrubber_handles_titled_names_in_linear_time() -> None:
    # The input at 320 KB: the old scrubber took 1 s at 32 KB and ~100 s here
    # (~300 ms per KB); quiet now ~1 s in all.
    text = "Dr. Ab " * (320 * 1024 // 7)
    _within(scrub, text, ms_per_kb=30)
    assert scrub(text).text.startswith("Dr. <PERSON_1> Dr. <PERSON_1>")


@SETTINGS
@given(hostile(KEY_UNITS, 512 * 1024))
def test_key_redaction_is_linear_on_hostile_text(text: str) -> None:
    # These patterns were already linear (each attempt stops within its own run); quiet
    # ~0.1 ms per KB, so this guards them against a backtracking edit.
    _within(mask_key_shapes, text, ms_per_kb=5)


def test_the_section_of_every_line_is_found_in_linear_time_on_many_headings() -> None:
    # 5,000 headings, each line's section asked for: a walk over every section per line was
    # ~n² (5e7 steps, ~5 s for these 100 KB); by bisection, quiet ~10 ms.
    note = "\n".join(f"## Heading {i}\ntext {i}" for i in range(5_000))
    doc = parse_note("hostile.md", note)

    def every_section(_: str) -> None:
        for line in range(len(doc.lines)):
            doc.section_of(line)

    _within(every_section, note, ms_per_kb=10)
    assert doc.section_of(len(doc.lines) - 1).heading == "Heading 4999"
