"""Reading typed answers: text normalization and the number formats a learner writes."""

from __future__ import annotations

from fractions import Fraction

import pytest
from studyhall.core.classroom.answer_text import normalize_text, number_from_json, parse_number


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("  The  Mitochondria! ", "the mitochondria"),
        ("Don't", "dont"),
        ("don’t", "dont"),
        ("well-known", "well known"),
        ("ＡＢＣ", "abc"),  # NFKC: full-width letters
        ("Straße", "strasse"),  # case folding, not just lower()
        ("ﬁne", "fine"),  # ligature
        ("a\tb\nc", "a b c"),
    ],
)
def test_texts_that_mean_the_same_compare_equal(a: str, b: str) -> None:
    assert normalize_text(a) == normalize_text(b)


@pytest.mark.parametrize(("a", "b"), [("résumé", "resume"), ("$5", "5"), ("C++", "C")])
def test_texts_that_differ_stay_different(a: str, b: str) -> None:
    assert normalize_text(a) != normalize_text(b)


def test_a_punctuation_only_answer_is_still_comparable() -> None:
    assert normalize_text(" ? ") == "?"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("42", Fraction(42)), ("-3.5", Fraction(-7, 2)), ("+.5", Fraction(1, 2)),
        ("1e3", Fraction(1000)), ("2.5E-1", Fraction(1, 4)), ("1,000", Fraction(1000)),
        ("12,345,678.5", Fraction(24691357, 2)), ("1 000", Fraction(1000)),
        ("3/4", Fraction(3, 4)), (" 3 / 4 ", Fraction(3, 4)), ("1 1/2", Fraction(3, 2)),
        ("-1 1/2", Fraction(-3, 2)), ("3,5", Fraction(7, 2)), ("１２", Fraction(12)),
        ("\u22122", Fraction(-2)),
    ],
)
def test_numbers(text: str, value: Fraction) -> None:
    assert parse_number(text) == value


@pytest.mark.parametrize(
    "text", ["", "abc", "1/0", "1e99999", "1,000,00", "12%", "one", "1..2", "inf", "nan", "1" * 101]
)
def test_not_numbers(text: str) -> None:
    assert parse_number(text) is None


def test_json_numbers() -> None:
    assert number_from_json(0.1) == Fraction(1, 10)
    assert number_from_json(7) == Fraction(7)
    assert number_from_json("7/2") == Fraction(7, 2)
    assert number_from_json(True) is None
    assert number_from_json(float("inf")) is None
    assert number_from_json(None) is None
