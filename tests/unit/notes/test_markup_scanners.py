"""The linear scanners read markup exactly as the regular expressions they replace did: on
random short texts built from markup characters, ``plain`` and each rule give the same
result as the old patterns (``tests/support/markup_reference.py``), so no normal note reads
differently."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from studyhall.core.library.sources.notes import inline, prose
from studyhall.core.library.sources.notes import markup_scan as scan

from tests.support import markup_reference as ref

# Markup characters and the openers the rules look for, with a little prose between them.
_PIECES = [*"[]()!|#^\\<>*_~=`%\"' \n\tab.A1", "[[", "]]", "](", "**", "__", "~~", "==", "``",
           "```", "![[", "%%", "[^", "a b", "  "]
markup = st.lists(st.sampled_from(_PIECES), max_size=30).map("".join)


@settings(max_examples=800, deadline=None)
@given(markup)
def test_plain_reads_markup_as_the_old_patterns_did(text: str) -> None:
    assert prose.plain(text) == ref.plain(text)


@settings(max_examples=800, deadline=None)
@given(markup)
def test_each_markup_rule_replaces_what_its_old_pattern_did(text: str) -> None:
    for (needles, pattern, repl), (_, rule) in zip(ref.RULES, prose._RULES, strict=True):
        expected = pattern.sub(ref._wiki if repl == "\x00wiki" else repl, text)
        assert rule(text) == expected, (needles, text)
    spans = ref.CODE.sub(lambda m: "<" + m.group(2) + ">", text)
    assert scan.code_spans(text, lambda content: "<" + content + ">") == spans


@settings(max_examples=800, deadline=None)
@given(markup)
def test_links_and_code_spans_are_found_as_the_old_patterns_found_them(text: str) -> None:
    def found(pattern: re.Pattern[str]) -> list[tuple[object, ...]]:
        return [(*m.span(), *m.groups()) for m in pattern.finditer(text)]

    assert found(inline._MD_LINK) == found(ref.MD_LINK)
    assert inline.mask_code_spans(text) == ref.mask_code_spans(text)


def test_a_sentence_past_the_markup_bound_keeps_its_tail_as_written() -> None:
    head = "a " * (scan.MAX_MARKUP // 2)
    assert prose.plain(head + "**bold** [[Note]]") == (head + "**bold** [[Note]]").strip()
    assert prose.plain("**bold** [[Note]] " + head) == ("bold Note " + head).strip()
