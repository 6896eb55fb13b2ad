"""Overlapping findings are resolved as before, in linear time: the earlier detector wins,
then the earlier start, then the longer span. Checked against the plain rule (keep a
candidate unless it overlaps one already kept) on random candidates from stub detectors."""

from __future__ import annotations

from collections.abc import Iterable

from hypothesis import given, settings
from hypothesis import strategies as st
from studyhall.core.guardrails.findings import Candidate
from studyhall.core.guardrails.scrubber import resolve_overlaps

spans = st.lists(st.tuples(st.integers(0, 60), st.integers(0, 12)), max_size=25)


def _kept_by_the_plain_rule(groups: Iterable[list[Candidate]]) -> list[Candidate]:
    taken: list[Candidate] = []
    for found in groups:
        for c in sorted(found, key=lambda c: (c.start, c.start - c.end)):
            if c.end > c.start and not any(c.start < t.end and t.start < c.end for t in taken):
                taken.append(c)
    return sorted(taken, key=lambda c: c.start)


@settings(max_examples=500, deadline=None)
@given(st.lists(spans, min_size=1, max_size=4))
def test_overlaps_resolve_as_the_plain_rule_resolves_them(
    groups: list[list[tuple[int, int]]],
) -> None:
    found = [[Candidate("PERSON", s, s + n) for s, n in group] for group in groups]
    assert resolve_overlaps(found) == _kept_by_the_plain_rule(found)
