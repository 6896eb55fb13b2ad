"""Prose out of Markdown: a node's plain text and a block's sentences. ``plain`` skips a rule
whose markup is absent, so these pin the cases where one rule's output feeds the next."""

from __future__ import annotations

import pytest
from studyhall.core.library.sources.notes.prose import plain, sentences


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("plain words only", "plain words only"),
        # A wikilink's alias is itself Markdown: the emphasis rules run on what it left.
        ("[[Note|**bold** alias]] said", "bold alias said"),
        ("A `code **x**` and **y**", "A code **x** and y"),  # code is shown as written
        ("[[Folder/Note.md]] and [[#Heading]]", "Note and Heading"),
        ("text ^block-1", "text"),
        ("[x] done #tag/sub #123", "done tag/sub #123"),
        ("a_b_c and _it_ and *x* and 2*3*4", "a_b_c and it and x and 2*3*4"),
        ("see [link](http://a_b_c) ==hi== ~~no~~", "see link hi no"),
        ("%%c%% ![[e.png]] ![i](a.png)[^1] <b>t</b>", "t"),
        ("spaced , out .", "spaced, out."),
    ],
)
def test_plain_text_is_what_a_reader_sees(raw: str, expected: str):
    assert plain(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("One e.g. two. Three! Four?\u00a0Five", ["One e.g. two.", "Three!", "Four?", "Five"]),
        ('Dr. Who went. "Then" he left.', ["Dr. Who went.", '"Then" he left.']),
        ("end.\n\tNext line", ["end.", "Next line"]),
        ("a.b. C", ["a.b.", "C"]),
        ("no end", ["no end"]),
        ("", []),
    ],
)
def test_sentences_split_at_ends_but_not_abbreviations(raw: str, expected: list[str]):
    assert sentences(raw) == expected


def test_placeholder_lookalikes_in_a_note_are_dropped_not_a_crash() -> None:
    assert plain("a \x017\x02 b `code` c") == "a 7 b code c"
    assert plain("\x010\x02") == "0"
