"""Spotting likely misspellings cheaply: a query term the index never saw that is one edit away
from a term it has. Candidates are bucketed by first letter and length, so a check scans a few
hundred terms, not the whole vocabulary (a typo in the first letter is not caught — rare, and
the check only decides whether a rewrite is worth asking for)."""

from __future__ import annotations

from collections.abc import Iterable


def near_terms(vocabulary: Iterable[str]) -> dict[tuple[str, int], list[str]]:
    """Terms of three letters or more, by (first letter, length)."""
    buckets: dict[tuple[str, int], list[str]] = {}
    for term in vocabulary:
        if len(term) >= 3:
            buckets.setdefault((term[0], len(term)), []).append(term)
    return buckets


def one_edit(a: str, b: str) -> bool:
    """True when ``b`` is ``a`` with one letter changed, added or dropped, or two adjacent
    letters swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long = (a, b) if len(a) < len(b) else (b, a)
    i = next((k for k in range(len(short)) if short[k] != long[k]), len(short))
    return short[i:] == long[i + 1:]
