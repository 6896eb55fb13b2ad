"""Where a link into a note lands, looked up once per note instead of by scanning every heading
for every link: the same section the scan found for every subpath (nested, repeated, ``#`` in a
heading, case, a hostile heading of many ``#``), and 20k links into a note of 20k headings in
linear time."""

from __future__ import annotations

import time

from studyhall.core.library.sources.heading_lookup import HeadingLookup
from studyhall.core.library.sources.notes import NoteDoc, parse_note
from studyhall.core.library.sources.notes.document import Section

from tests.support.hostile_vault import many_headings

TRICKY = (
    "Intro line.\n\n# Top\ntext\n## Sub\n### Deep\n## Sub\n# C# basics\n## Sub\n"
    "# Other\n## Deep\nSetext\n---\n# " + "# x " * 20 + "\n## Tail\n"
    "# " + "long " * 80 + "\n## Sub\n"
)
SUBPATHS = ["", "  ", "Top", "top", "Top#Sub", "Sub", "Top#Sub~2", "Sub~2", "Deep", "Sub#Deep",
            "Top#Sub#Deep", "C# basics", "c# BASICS#sub", "basics#Sub", "Other#Deep", "Setext",
            "Other#Setext", "x", "x #Tail", "Tail", "long", "Nope", "Top#Nope", "Nope#Deep",
            "#Sub", "Sub#", "# x # x"]


def scan(doc: NoteDoc, subpath: str) -> Section | None:
    """The old look-up: every heading, for every link."""
    want = subpath.casefold().strip()
    if not want:
        return doc.sections[0]
    for section in doc.sections[1:]:
        anchor = section.anchor.casefold()
        if anchor == want or anchor.endswith("#" + want):
            return section
    last = want.rsplit("#", 1)[-1]
    for section in doc.sections[1:]:
        if (section.heading or "").casefold() == last:
            return section
    return None


def test_a_subpath_lands_where_the_scan_of_every_heading_landed() -> None:
    doc = parse_note("n.md", TRICKY)
    lookup = HeadingLookup(doc)
    subpaths = SUBPATHS + [s.anchor for s in doc.sections] + [s.heading or "" for s in doc.sections]
    for subpath in subpaths:
        assert lookup.find(subpath) == scan(doc, subpath), subpath
    for line in range(len(doc.lines)):
        assert lookup.section_at(line) == doc.section_of(line), line


def test_20k_links_into_a_note_of_20k_headings_land_in_linear_time() -> None:
    doc = parse_note("Headings.md", many_headings(20_000))
    wants = [s.anchor for s in doc.sections[1:]]
    began = time.perf_counter()
    lookup = HeadingLookup(doc)
    found = [lookup.find(want) for want in wants]
    seconds = time.perf_counter() - began
    assert [s.index if s else None for s in found] == list(range(1, len(doc.sections)))
    # ~0.1 s on a quiet machine; the scan per link was 200M comparisons here (minutes). 10 s
    # is generous for a loaded 2-core box.
    assert seconds < 10, f"{seconds:.1f} s"
