"""Where a link into a note lands: the section a ``#heading`` subpath or a block's line names.

Built once per note, so every link costs a dictionary look-up: looking each link's subpath up
by scanning every heading made a note of 20k links into a note of 20k headings quadratic.
The rules are Obsidian's (and were the scan's): the first heading whose anchor is the subpath
or ends with ``#`` + the subpath, else the first whose own text is the subpath's last part;
case does not matter.
"""

from __future__ import annotations

from bisect import bisect_right

from studyhall.core.library.sources.notes.document import NoteDoc, Section

# An anchor is indexed by its every "#"-suffix; a longer one or one with more "#" than this (a
# hostile heading of "# # # ...") is checked the slow way instead, so the index stays small.
# Real anchors are a few headings deep, so nearly all are indexed.
MAX_INDEXED_HASHES = 8
MAX_INDEXED_CHARS = 256


class HeadingLookup:
    def __init__(self, doc: NoteDoc) -> None:
        self._doc = doc
        self._by_anchor: dict[str, int] = {}  # anchor, or a "#"-suffix of one -> first section
        self._by_heading: dict[str, int] = {}  # heading text -> first section
        self._unindexed: list[Section] = []  # anchors with too many "#" to index
        for section in doc.sections[1:]:
            anchor = section.anchor.casefold()
            self._by_heading.setdefault((section.heading or "").casefold(), section.index)
            if len(anchor) > MAX_INDEXED_CHARS or anchor.count("#") > MAX_INDEXED_HASHES:
                self._unindexed.append(section)
                continue
            self._by_anchor.setdefault(anchor, section.index)
            at = anchor.find("#")
            while at != -1:
                self._by_anchor.setdefault(anchor[at + 1 :], section.index)
                at = anchor.find("#", at + 1)
        starts = [s.start for s in doc.sections]
        self._starts = starts if starts == sorted(starts) else None

    def find(self, subpath: str) -> Section | None:
        """The section a link's ``#`` subpath names (the preamble for none), or None."""
        sections = self._doc.sections
        want = subpath.casefold().strip()
        if not want:
            return sections[0]
        hit = self._by_anchor.get(want)
        for section in self._unindexed:
            if hit is not None and section.index > hit:
                break
            anchor = section.anchor.casefold()
            if anchor == want or anchor.endswith("#" + want):
                hit = section.index
                break
        if hit is not None:
            return sections[hit]
        by_text = self._by_heading.get(want.rsplit("#", 1)[-1])
        return sections[by_text] if by_text is not None else None

    def section_at(self, line: int) -> Section:
        """The section a line of the note belongs to (``NoteDoc.section_of``, by bisection)."""
        if self._starts is None:
            return self._doc.section_of(line)
        return self._doc.sections[max(0, bisect_right(self._starts, line) - 1)]
