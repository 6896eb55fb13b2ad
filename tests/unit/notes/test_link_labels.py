"""What a wikilink reads as in the reader: its alias, else the note and the heading it points at,
the note alone for a block — never the link's ``#`` or ``^`` syntax."""

from __future__ import annotations

from studyhall.core.library.sources.note_reading import link_wikilinks

PATHS = {"Guide 155.md": "note_guide", "Krebs cycle.md": "note_krebs"}


def test_a_link_to_a_heading_or_a_block_reads_as_words():
    shown = link_wikilinks("[[Guide 155#^block155]] · [[Krebs cycle#Where it happens]] · "
                           "[[Krebs cycle#Why|why]] · [[Gone#^b7]] · [[#Local]]",
                           PATHS, "note_self")
    assert shown == ("[Guide 155](#/sources/note_guide) · "
                     "[Krebs cycle › Where it happens](#/sources/note_krebs?at=where-it-happens) · "
                     "[why](#/sources/note_krebs?at=why) · Gone · "
                     "[Local](#/sources/note_self?at=local)")
