"""The PII scrubber: each entity type, stable placeholders, offsets, restore, and look-alikes
that must stay (dates, versions, barcodes, loopback addresses, famous scientists)."""

from __future__ import annotations

import pytest
from studyhall.core.guardrails.checksums import card_prefix_valid, iban_valid, luhn_valid
from studyhall.core.guardrails.scrubber import Placeholders, detect, scrub


def types(text: str) -> list[tuple[str, str]]:
    return [(c.type, text[c.start:c.end]) for c in detect(text)]


@pytest.mark.parametrize(("text", "kind", "value"), [
    ("write to jane.doe+notes@uni.example.ac.uk.", "EMAIL", "jane.doe+notes@uni.example.ac.uk"),
    ("call (555)201-3344x12 tonight", "PHONE", "(555)201-3344x12"),
    ("ring +44(0)117 496 0123 please", "PHONE", "+44(0)117 496 0123"),
    ("text me at 5552013344", "PHONE", "5552013344"),
    ("card 4111 1111 1111 1111 expired", "CARD", "4111 1111 1111 1111"),
    ("amex 3782-822463-10005", "CARD", "3782-822463-10005"),
    ("iban GB82 WEST 1234 5698 7654 32 ok", "IBAN", "GB82 WEST 1234 5698 7654 32"),
    ("DE89370400440532013000", "IBAN", "DE89370400440532013000"),
    ("ssn 123-45-6789", "SSN", "123-45-6789"),
    ("my SSN: 123456789", "SSN", "123456789"),
    ("server 203.0.113.7:8080 down", "IP", "203.0.113.7"),
    ("host 2001:db8:85a3::8a2e:370:7334.", "IP", "2001:db8:85a3::8a2e:370:7334"),
    ("ship to 1600 Pennsylvania Avenue NW, Washington, DC 20500", "ADDRESS",
     "1600 Pennsylvania Avenue NW, Washington, DC 20500"),
    ("I asked Dr. Priya Raman about it", "PERSON", "Priya Raman"),
    ("my friend Olek says hi", "PERSON", "Olek"),
    ("Maria Garcia explained it", "PERSON", "Maria Garcia"),
])
def test_each_type_is_found_with_its_exact_span(text: str, kind: str, value: str) -> None:
    assert (kind, value) in types(text)


@pytest.mark.parametrize("text", [
    "The exam is on 2024-03-15 at 14:30:45.",
    "Python 3.11.2 and Windows build 10.0.22631.2861",
    "ISBN 978-0-262-03384-8, barcode 4006381333931 (a Luhn failure).",
    "Why does 4111 1111 1111 1112 fail the Luhn check?",
    "What does 127.0.0.1 mean, and 255.255.255.0, and 10.0.0.0/8, and ::1?",
    "In C++ std::vector<int> v; in Python x[::2]; a clock at 12:30:45.",
    "Isaac Newton, Albert Einstein and Ada Lovelace changed science.",
    "Explain the Jordan Curve Theorem and the Monte Carlo Method.",
    "Will Python run faster? May I ask? Mark each answer.",
    "King Charles and the Norman Conquest changed the Catholic Church.",
    "Chapter 3 Key Points: 0.001 0.01 0.1 and 1000 + 2000.",
])
def test_look_alikes_stay(text: str) -> None:
    assert types(text) == []


def test_same_value_gets_the_same_placeholder_and_offsets_point_into_the_input() -> None:
    text = "a@x.org, then b@y.org, then A@X.org again"
    result = scrub(text)
    assert result.text == "<EMAIL_1>, then <EMAIL_2>, then <EMAIL_1> again"
    for f in result.findings:
        assert text[f.start:f.end] == f.value
    assert [f.placeholder for f in result.findings] == ["<EMAIL_1>", "<EMAIL_2>", "<EMAIL_1>"]


def test_restore_gives_back_the_original_text() -> None:
    scope = Placeholders()
    text = "Jane Doe (jane@example.com, 555-201-3344) lives at 12 Oak Street, Austin, TX 78701."
    scrubbed = scrub(text, scope).text
    assert "jane@example.com" not in scrubbed and "555-201-3344" not in scrubbed
    assert scope.restore(scrubbed) == text


def test_placeholder_look_alikes_in_the_input_are_never_reused() -> None:
    text = "I literally typed <EMAIL_1> and my mail is me@example.com"
    result = scrub(text)
    assert result.text == "I literally typed <EMAIL_1> and my mail is <EMAIL_2>"
    scope = Placeholders()
    scope.reserve(text)
    scrub(text, scope)
    assert scope.restore("<EMAIL_1> / <EMAIL_2>") == "<EMAIL_1> / me@example.com"


def test_restore_can_escape_for_json_text() -> None:
    scope = Placeholders()
    scrub('send it to 12 Oak Street\nAustin, TX 78701 "now"', scope)
    assert scope.restore('{"a": "<ADDRESS_1>"}', json_escaped=True) == \
        '{"a": "12 Oak Street\\nAustin, TX 78701"}'


def test_an_overlap_goes_to_the_checksummed_identifier() -> None:
    # An e-mail's local part looks like a name; a card could be read as a phone: one wins.
    assert types("John.Smith@example.com") == [("EMAIL", "John.Smith@example.com")]
    assert types("pay with 4111-1111-1111-1111") == [("CARD", "4111-1111-1111-1111")]
    assert types("SSN 078-05-1120") == [("SSN", "078-05-1120")]


def test_checksums() -> None:
    assert luhn_valid("79927398713") and not luhn_valid("79927398710")
    assert card_prefix_valid("4111111111111111") and not card_prefix_valid("9111111111111111")
    assert iban_valid("GB82WEST12345698765432") and not iban_valid("GB82WEST12345698765431")
    assert not iban_valid("XX82WEST12345698765432")
