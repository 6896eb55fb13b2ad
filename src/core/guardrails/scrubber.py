"""The PII scrubber: find every entity, resolve overlaps, replace each distinct value with a
stable placeholder (``<EMAIL_1>``), and put the values back with ``Placeholders.restore`` — in
streamed text with ``StreamRestorer``: a placeholder may arrive split across deltas ("<EMA" then
"IL_1>"), so a tail that could still become one is held back until it can't.

One ``Placeholders`` is one scope (a model call, a CLI run): the same value gets the same
placeholder in every message of it, and numbers already written in the input as placeholder
look-alikes are never reused, so restoring cannot turn the learner's literal "<EMAIL_1>" into
somebody's address.
"""

from __future__ import annotations

import heapq
import json
import re
from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

from studyhall.core.guardrails.addresses import find_addresses
from studyhall.core.guardrails.findings import ENTITY_TYPES, Candidate, EntityType, Finding
from studyhall.core.guardrails.people import find_people
from studyhall.core.guardrails.structured import (
    find_cards,
    find_emails,
    find_ibans,
    find_ips,
    find_phones,
    find_ssns,
)

Detector = Callable[[str], list[Candidate]]
# Earlier wins an overlap: checksummed identifiers before digit patterns before heuristics.
DETECTORS: tuple[tuple[EntityType, Detector], ...] = (
    ("EMAIL", find_emails),
    ("IBAN", find_ibans),
    ("CARD", find_cards),
    ("SSN", find_ssns),
    ("IP", find_ips),
    ("PHONE", find_phones),
    ("ADDRESS", find_addresses),
    ("PERSON", find_people),
)
PLACEHOLDER = re.compile(r"<(" + "|".join(ENTITY_TYPES) + r")_(\d{1,6})>")


def detect(text: str, types: Iterable[EntityType] = ENTITY_TYPES) -> list[Candidate]:
    """Non-overlapping candidates, in text order."""
    return list(_detect(text, frozenset(types)))


# Every model call sends the whole conversation again: each message is detected once, then
# found here by its content (detection is pure; about 1.75 ms per KB of text otherwise).
@lru_cache(maxsize=512)
def _detect(text: str, wanted: frozenset[EntityType]) -> tuple[Candidate, ...]:
    return tuple(resolve_overlaps(find(text) for kind, find in DETECTORS if kind in wanted))


def resolve_overlaps(groups: Iterable[list[Candidate]]) -> list[Candidate]:
    """The candidates kept, in text order: each detector's group in turn, and in a group the
    earlier start, then the longer span; a candidate overlapping one already kept is dropped."""
    taken: list[Candidate] = []  # no two overlapping, in text order
    for found in groups:
        taken = _merge(taken, _free(taken, sorted(found, key=lambda c: (c.start, c.start - c.end))))
    return taken


def _free(taken: list[Candidate], found: list[Candidate]) -> list[Candidate]:
    """The candidates of one detector (in start order, the longer first) that overlap neither
    an earlier detector's finding nor one already kept. By bisection over ``taken`` (whose
    ends rise with its starts, as no two overlap): a scan of every kept finding per candidate
    was ~n² on text full of names ("Dr. Ab " x 30,000 took over 30 s)."""
    starts = [t.start for t in taken]
    kept: list[Candidate] = []
    for c in found:
        if c.end <= c.start or (kept and c.start < kept[-1].end):
            continue
        i = bisect_right(starts, c.start)  # taken[i - 1] starts at or before c, taken[i] after
        if (i and taken[i - 1].end > c.start) or (i < len(taken) and taken[i].start < c.end):
            continue
        kept.append(c)
    return kept


def _merge(a: list[Candidate], b: list[Candidate]) -> list[Candidate]:
    return list(heapq.merge(a, b, key=lambda c: c.start))


def _key(kind: EntityType, value: str) -> str:
    """Two spellings of one value share a placeholder (case of an e-mail, card spacing)."""
    if kind in ("PHONE", "CARD", "SSN", "IBAN"):
        return "".join(ch for ch in value.upper() if ch.isalnum())
    if kind in ("EMAIL", "IP"):
        return value.lower()
    return " ".join(value.split())


class Placeholders:
    """Value <-> placeholder for one scope; ``reserve`` the input's look-alikes first."""

    def __init__(self) -> None:
        self._by_key: dict[tuple[EntityType, str], str] = {}
        self._values: dict[str, str] = {}
        self._counts: dict[str, int] = {}
        self._reserved: set[str] = set()

    def reserve(self, text: str) -> None:
        self._reserved.update(m.group() for m in PLACEHOLDER.finditer(text))

    def placeholder_for(self, kind: EntityType, value: str) -> str:
        key = (kind, _key(kind, value))
        found = self._by_key.get(key)
        if found is not None:
            return found
        n = self._counts.get(kind, 0)
        while True:
            n += 1
            token = f"<{kind}_{n}>"
            if token not in self._reserved:
                break
        self._counts[kind] = n
        self._by_key[key] = token
        self._values[token] = value
        return token

    @property
    def values(self) -> dict[str, str]:
        """Placeholder -> the original text it stands for."""
        return dict(self._values)

    def __bool__(self) -> bool:
        return bool(self._values)

    def restore(self, text: str, *, json_escaped: bool = False) -> str:
        """``text`` with our placeholders replaced by their values; with ``json_escaped`` the
        values are escaped for the inside of a JSON string (a line break becomes ``\\n``)."""
        if not self._values or "<" not in text:
            return text

        def value(m: re.Match[str]) -> str:
            found = self._values.get(m.group())
            if found is None:
                return m.group()
            return json.dumps(found, ensure_ascii=False)[1:-1] if json_escaped else found

        return PLACEHOLDER.sub(value, text)


@dataclass(frozen=True)
class Scrubbed:
    text: str
    findings: tuple[Finding, ...]


def scrub(text: str, placeholders: Placeholders | None = None,
          types: Iterable[EntityType] = ENTITY_TYPES) -> Scrubbed:
    """``text`` with every finding replaced; offsets in the findings point into ``text``."""
    scope = placeholders if placeholders is not None else Placeholders()
    if placeholders is None:
        scope.reserve(text)
    pieces: list[str] = []
    findings: list[Finding] = []
    at = 0
    for c in detect(text, types):
        value = text[c.start:c.end]
        token = scope.placeholder_for(c.type, value)
        findings.append(Finding(c.type, c.start, c.end, value, token))
        pieces += [text[at:c.start], token]
        at = c.end
    pieces.append(text[at:])
    return Scrubbed("".join(pieces), tuple(findings))


# --- restoring streamed text ------------------------------------------------------------------

_LONGEST = max(len(t) for t in ENTITY_TYPES) + 9  # "<" + TYPE + "_" + 6 digits + ">"
_PARTIAL = re.compile(r"<[A-Z]*(?:_\d*)?$")


def _could_become_placeholder(tail: str) -> bool:
    if len(tail) > _LONGEST or not _PARTIAL.match(tail):
        return False
    name = tail[1:].split("_", 1)[0]
    return any(t.startswith(name) for t in ENTITY_TYPES) and (
        "_" not in tail or name in ENTITY_TYPES
    )


class StreamRestorer:
    def __init__(self, placeholders: Placeholders, *, json_escaped: bool = False) -> None:
        self._placeholders = placeholders
        self._json = json_escaped
        self._held = ""

    def feed(self, delta: str) -> str:
        text = self._held + delta
        self._held = ""
        cut = text.rfind("<")
        if cut != -1 and ">" not in text[cut:] and _could_become_placeholder(text[cut:]):
            text, self._held = text[:cut], text[cut:]
        return self._placeholders.restore(text, json_escaped=self._json)

    def flush(self) -> str:
        held, self._held = self._held, ""
        return self._placeholders.restore(held, json_escaped=self._json)
