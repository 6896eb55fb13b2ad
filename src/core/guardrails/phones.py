"""Phone numbers, international and national, found the way libphonenumber reads them.

Three kinds of evidence, strongest first:

- an international prefix (``+CC`` / ``00CC``): the number must be *possible* for that country
  in libphonenumber's metadata (length per country), so "+1 2" or a version string is not;
- a national shape that is a phone number almost everywhere (North American 3-3-4 with
  separators, a trunk ``0`` then groups: ``0117 496 0123``, ``(020) 7946 0123``);
- words that say a phone number follows or precedes ("call", "phone", "tel", "mobile", "fax",
  "Phone:" on the line above, "… office" after): then any national grouping of 6–15 digits
  that is not a date, a time, a decimal or a code with letters — "467 3395", "(37) 788-063",
  "60-56-85-91". Without such words a short national number stays text, since "84 23 30"
  alone is as likely a score or a table row.

Every pattern is bounded (at most seven groups of at most six digits), so the scan is linear in
the text; the context look-behind reads at most one line of 60 characters.
"""

from __future__ import annotations

import re

import phonenumbers
from studyhall.core.guardrails.findings import Candidate
from studyhall.core.guardrails.lazy_regex import LazyPattern

_EXT = r"(?:[ ]?(?:x|ext\.?|extension)[ ]?\d{1,6})?"
_END = r"(?![\w]|[.-]\d)"
# +CC / 00CC, an optional "(0)" trunk or "(area)", then digit groups. No phone number starts
# inside a longer run of digit groups (a card, a barcode) or after a decimal point.
_PHONE_INTL = LazyPattern(
    r"(?<![\w+.])(?<!\d[ .-])(?:\(\+\d{1,3}\)|\+\(\d{1,3}\)|\+|00)[ ]?\d{0,3}"
    r"(?:[ .-]?\(\d{1,4}\)[ .-]?|[ .-]?)\d{1,4}(?:[ .-]?\d{1,9}){1,5}" + _EXT + _END
)
# North American 3-3-4 with separators: 555-123-4567, (555)123-4567, 555.123.4567.
_PHONE_NANP = LazyPattern(
    r"(?<![\w+(.-])(?<!\d[ .-])(?:\([2-9]\d{2}\)[ ]?|[2-9]\d{2}[ .-])\d{3}[ .-]\d{4}" + _EXT + _END
)
# National numbers with a trunk 0: 0117 496 0123, (020) 7946 0123, 01 23 45 67 89.
_PHONE_TRUNK = LazyPattern(
    r"(?<![\w+(.-])(?<!\d[ .-])(?:\(0\d{1,4}\)[ .-]?|0\d{1,4}[ .-]?)\d{2,4}(?:[ .-]?\d{2,4}){1,3}"
    + _EXT + _END
)
# Any national grouping: an optional "(area)", then up to seven groups joined by one space,
# dot or hyphen. Taken only next to words that say it is a phone number.
_PHONE_GROUPED = LazyPattern(
    r"(?<![\w+(./:-])(?<!\d[ .-])(?:\d{1,3}[ ]?)?(?:\(\d{1,5}\)[ ]?/?)?\d{1,15}"
    r"(?:(?:[ .-]|/[ ]?)\d{1,8}){0,6}" + _EXT + _END
)
# A bare run of 10-11 digits starting with a trunk 0 (0xx…): a national number as typed.
_PHONE_BARE_TRUNK = LazyPattern(r"(?<![\w+.-])(?<!\d[ .-])0[1-9]\d{8,9}" + _END)
_PHONE_WORDS = (r"\b(?:phone|call|text|mobile|cell|tel|telephone|number|whats ?app|fax|reach|"
                r"contact|ring|sms|dial|landline|answering|desk|office|hotline|messages? to|registered)")
_CONTEXT_BEFORE = LazyPattern(_PHONE_WORDS + r"\b[^\n\d]{0,30}\n?[^\n\d]{0,8}$", re.IGNORECASE)
_CONTEXT_AFTER = LazyPattern(
    r"^[ ]?(?:-[ ]?)?\(?(?:office|fax|mobile|cell|home|work|desk|tel|phone)\b", re.IGNORECASE
)
# Words that make a number something else even after "number": "ISBN number 978-…".
_NOT_A_PHONE = LazyPattern(
    r"\b(?:isbn|issn|doi|imei|routing|barcode|ean|upc|order|invoice|account|card|iban|ssn|"
    r"social security|version|page|room|zip|postcode|postal|serial|tracking)\b[^\n\d]{0,20}$",
    re.IGNORECASE,
)
# A date (2024-05-01, 01.05.2024, 1/5/24) or a clock time, even after "call me on".
_DATE = re.compile(r"^(?:(?:19|20)\d{2}([./-])\d{1,2}\1\d{1,2}|\d{1,2}([./-])\d{1,2}\2(?:\d{2}|(?:19|20)\d{2})"
                   r"|\d{1,2}[.:]\d{2})$")


def _digits(text: str) -> str:
    return "".join(ch for ch in text if ch.isdigit())


def _phone_digits(span: str) -> int:
    core = re.split(r"[ ]?(?:x|ext\.?|extension)[ ]?\d", span)[0]
    return len(_digits(core.replace("(0)", "")))


def _possible_international(span: str) -> bool:
    core = re.split(r"[ ]?(?:x|ext\.?|extension)[ ]?\d", span)[0]
    digits = _digits(core.replace("(0)", ""))
    if core.lstrip("(").startswith("00"):
        digits = digits[2:]
    try:
        number = phonenumbers.parse("+" + digits, None)
    except phonenumbers.NumberParseException:
        return False
    return bool(phonenumbers.is_possible_number(number))


def _said_to_be_a_phone(text: str, start: int, end: int) -> bool:
    before = text[max(0, start - 60):start]
    if _NOT_A_PHONE.search(before):  # the nearest words name something else: "IMEI is …"
        return False
    return bool(_CONTEXT_BEFORE.search(before) or _CONTEXT_AFTER.search(text[end:end + 12]))


def _national_in_context(text: str, span: str, start: int, end: int) -> bool:
    count = _phone_digits(span)
    if not 6 <= count <= 15 or _DATE.match(span):
        return False
    groups = [g for g in re.split(r"[ ./()-]+", span) if g]
    if len(groups) == 1 and count < 7:
        return False  # "call 911", "ring 112233": too short to be someone's number
    return _said_to_be_a_phone(text, start, end)


def find_phones(text: str) -> list[Candidate]:
    out: list[Candidate] = []
    for m in _PHONE_INTL.finditer(text):
        count = _phone_digits(m.group())
        if 8 <= count <= 15 and (_possible_international(m.group())
                                 or _said_to_be_a_phone(text, m.start(), m.end())):
            out.append(Candidate("PHONE", m.start(), m.end()))
    out += [Candidate("PHONE", m.start(), m.end()) for m in _PHONE_NANP.finditer(text)]
    for m in _PHONE_TRUNK.finditer(text):
        groups = [g for g in re.split(r"[ .()-]+", m.group().split("x")[0]) if g]
        count = _phone_digits(m.group())
        # A date like 01-02-2024 has 8 digits in 3 groups of one separator; Swedish numbers
        # (08-306 42 59) are 8-9 digits in 3-4 groups.
        mixed = "-" in m.group() and " " in m.group()  # 0738-765 94: area code, then groups
        if (10 <= count <= 11 and len(groups) >= 2) or (count == 9 and len(groups) >= 4) \
                or (8 <= count <= 9 and mixed and len(groups) >= 3):
            out.append(Candidate("PHONE", m.start(), m.end()))
    out += [Candidate("PHONE", m.start(), m.end()) for m in _PHONE_BARE_TRUNK.finditer(text)]
    for m in _PHONE_GROUPED.finditer(text):
        if _national_in_context(text, m.group(), m.start(), m.end()):
            out.append(Candidate("PHONE", m.start(), m.end()))
    return out
