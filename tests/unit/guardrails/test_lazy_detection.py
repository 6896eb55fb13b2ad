"""The guardrails' start-up and per-call savings keep their results: a lazy pattern matches as
the compiled one does, and a detected text found again in the cache gives the same findings."""

from __future__ import annotations

import re

from studyhall.core.guardrails.lazy_regex import LazyPattern
from studyhall.core.guardrails.scrubber import Placeholders, _detect, detect, scrub


def test_a_lazy_pattern_compiles_on_first_use_and_matches_like_re():
    lazy = LazyPattern(r"\bquiz\s+me\b", re.IGNORECASE)
    assert lazy._compiled is None
    text = "Please QUIZ me, then quiz  me again"
    eager = re.compile(r"\bquiz\s+me\b", re.IGNORECASE)
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in eager.finditer(text)]
    found = lazy.search(text)
    assert found is not None and found.group() == "QUIZ me"
    assert lazy.search("no match here") is None
    assert lazy._compiled is not None


def test_detection_is_cached_per_text_and_gives_the_same_findings():
    text = "Mail jane.doe@example.com or call +44 20 7946 0958 about Maria Garcia."
    _detect.cache_clear()
    first = detect(text)
    again = detect(text)
    assert again == first and again is not first  # callers get their own list
    assert _detect.cache_info().hits == 1
    assert {c.type for c in first} >= {"EMAIL", "PHONE"}
    # The cache holds candidates only: placeholders still follow each call's own scope.
    scope = Placeholders()
    scope.placeholder_for("EMAIL", "someone@else.org")
    assert "<EMAIL_2>" in scrub(text, scope).text
    assert "<EMAIL_1>" in scrub(text).text


def test_the_types_asked_for_are_part_of_the_cache_key():
    text = "Write to jane.doe@example.com"
    assert [c.type for c in detect(text)] == ["EMAIL"]
    assert detect(text, ["PHONE"]) == []
