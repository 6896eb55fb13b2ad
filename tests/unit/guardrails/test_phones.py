"""Phone numbers in national formats are found where words say they are phone numbers, by
libphonenumber's rules where a country code is given, and never at the cost of dates, times,
identifiers or version strings; hostile digit runs are scanned in linear time."""

from __future__ import annotations

import time

import pytest
from studyhall.core.guardrails.phones import find_phones
from studyhall.core.guardrails.scrubber import detect


def _phones(text: str) -> list[str]:
    return [text[c.start:c.end] for c in detect(text, ("PHONE",))]


# The numbers the labelled public set missed before libphonenumber (issue 32).
@pytest.mark.parametrize("text, number", [
    ("call me on 467 3395 after class", "467 3395"),
    ("my phone is (37) 788-063", "(37) 788-063"),
    ("Mobile: 699 956 915", "699 956 915"),
    ("Phone:\n21 284 698 2548", "21 284 698 2548"),
    ("They're not answering at 60-56-85-91", "60-56-85-91"),
    ("84 23 30-Office", "84 23 30"),
    ("tel. 8 (851) 194-47-41", "8 (851) 194-47-41"),
    ("reach me at (+30) 2991 616011", "(+30) 2991 616011"),
    ("fax 02280/29211692", "02280/29211692"),
    ("+41 34 349 35 83", "+41 34 349 35 83"),
])
def test_national_and_international_numbers_are_found(text: str, number: str) -> None:
    assert _phones(text) == [number]


@pytest.mark.parametrize("text", [
    "84 23 30 students passed the exam",  # a short national number needs words that say so
    "call me at 10:30 tomorrow",
    "phone me on 2024-05-01 about the essay",
    "call on 01/05/2024",
    "My phone's IMEI is 014112500283566",
    "Why is the routing number 451274312 nine digits long?",
    "the ISBN number 978-3-16-148410-0",
    "call 911 in an emergency",
    "+1 2 is three",
    "version 1.2.3.4567 was released",
])
def test_look_alikes_are_not_phone_numbers(text: str) -> None:
    assert _phones(text) == []


@pytest.mark.parametrize("hostile", [
    "1 " * 50_000, "1-" * 50_000, "(1) " * 30_000, "call 1 2 3 " * 20_000,
    "+1 " * 40_000, "0" * 100_000, "phone: (12)/" * 20_000,
])
def test_hostile_digit_runs_are_scanned_quickly(hostile: str) -> None:
    started = time.perf_counter()
    find_phones(hostile)
    # Linear scans take well under a second here; a backtracking pattern takes minutes.
    assert time.perf_counter() - started < 5
