"""What the scrubber finds: a typed span of the input, and the placeholder that stands for it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

EntityType = Literal["EMAIL", "PHONE", "CARD", "IBAN", "SSN", "IP", "ADDRESS", "PERSON"]
ENTITY_TYPES: tuple[EntityType, ...] = (
    "EMAIL", "PHONE", "CARD", "IBAN", "SSN", "IP", "ADDRESS", "PERSON",
)
# Types found by pattern + checksum/validity rules; PERSON and ADDRESS are heuristic.
STRUCTURED_TYPES: tuple[EntityType, ...] = ("EMAIL", "PHONE", "CARD", "IBAN", "SSN", "IP")


@dataclass(frozen=True)
class Candidate:
    """One detector's claim on ``text[start:end]``, before overlaps are resolved."""

    type: EntityType
    start: int
    end: int


@dataclass(frozen=True)
class Finding:
    """A resolved span; ``start``/``end`` are code-point offsets into the scrubbed input."""

    type: EntityType
    start: int
    end: int
    value: str
    placeholder: str
