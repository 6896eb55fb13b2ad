"""Detectors for the structured identifiers: e-mail addresses, phone numbers, payment cards
(Luhn + network prefix), IBANs (mod-97), US social security numbers and IP addresses (v4, v6).

Each returns candidates; patterns find look-alikes and the checks after them (checksums,
digit counts, validity ranges) drop the ones that are only numbers, dates or versions.
"""

from __future__ import annotations

import ipaddress
import re

from studyhall.core.guardrails.checksums import card_prefix_valid, iban_valid, luhn_valid
from studyhall.core.guardrails.findings import Candidate
from studyhall.core.guardrails.lazy_regex import LazyPattern

_EMAIL = LazyPattern(
    r"(?<![\w.%+-])[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}@"
    r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}(?![\w-])"
)

_EXT = r"(?:[ ]?(?:x|ext\.?|extension)[ ]?\d{1,6})?"
_END = r"(?![\w]|[.-]\d)"
# +CC / 00CC, an optional "(0)" trunk or "(area)", then digit groups. No phone number starts
# inside a longer run of digit groups (a card, a barcode) or after a decimal point.
_PHONE_INTL = LazyPattern(
    r"(?<![\w+.])(?<!\d[ .-])(?:\+|00)\d{1,3}(?:[ .-]?\(\d{1,4}\)[ .-]?|[ .-]?)\d{1,4}(?:[ .-]?\d{1,6}){1,5}"
    + _EXT + _END
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
# A bare run of digits is a phone number only when the words before it say so.
_PHONE_BARE = LazyPattern(r"(?<![\w+.-])(?<!\d[ .-])\d{10,11}" + _END)
_PHONE_CONTEXT = LazyPattern(
    r"(?:phone|call|text|mobile|cell|tel|number|whats ?app|fax|reach|contact|ring|sms|dial)"
    r"\b[^\n]{0,30}$",
    re.IGNORECASE,
)

_CARD = LazyPattern(r"(?<![\w.-])\d(?:\d|[ -](?=\d)){11,22}(?![\w]|[.-]\d)")
_IBAN = LazyPattern(r"(?<![\w])[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]){11,30}(?![\w])")
_SSN = LazyPattern(r"(?<![\w.-])(?!000|666|9\d\d)\d{3}([- ])(?!00)\d{2}\1(?!0000)\d{4}(?![\w]|[.-]\d)")
_SSN_BARE = LazyPattern(
    r"(?:\bSSN|social[ -]security(?:[ ]number)?)\b[^\d\n]{0,20}((?!000|666|9\d\d)\d{9})(?![\w])",
    re.IGNORECASE,
)
_IPV4 = LazyPattern(
    r"(?<![\w.])(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
    r"(?!\w|\.\d)(/\d{1,3})?"
)
_IPV6 = LazyPattern(
    r"(?<![\w:.])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:(?:\d{1,3}\.){3}\d{1,3}|[0-9A-Fa-f]{1,4})?"
    r"(?![\w:])(/\d{1,3})?"
)


def _digits(text: str) -> str:
    return "".join(ch for ch in text if ch.isdigit())


def find_emails(text: str) -> list[Candidate]:
    return [Candidate("EMAIL", m.start(), m.end()) for m in _EMAIL.finditer(text)]


def _phone_digits(span: str) -> int:
    core = re.split(r"[ ]?(?:x|ext\.?|extension)[ ]?\d", span)[0]
    return len(_digits(core.replace("(0)", "")))


def find_phones(text: str) -> list[Candidate]:
    out: list[Candidate] = []
    for m in _PHONE_INTL.finditer(text):
        if 8 <= _phone_digits(m.group()) <= 15:
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
    for m in _PHONE_BARE.finditer(text):
        digits = m.group()
        trunk = digits[0] == "0" and digits[1] != "0"  # 0xx... with a trunk 0: national
        if trunk or _PHONE_CONTEXT.search(text[max(0, m.start() - 40):m.start()]):
            out.append(Candidate("PHONE", m.start(), m.end()))
    return out


def _card_grouping_ok(span: str) -> bool:
    """Digits alone, or groups of 3+ digits joined by one kind of separator (4-4-4-4, 4-6-5)."""
    seps = {ch for ch in span if not ch.isdigit()}
    if not seps:
        return True
    if len(seps) > 1:
        return False
    return all(len(g) >= 3 for g in span.split(seps.pop()))


def find_cards(text: str) -> list[Candidate]:
    out: list[Candidate] = []
    for m in _CARD.finditer(text):
        digits = _digits(m.group())
        if (12 <= len(digits) <= 19 and _card_grouping_ok(m.group())
                and luhn_valid(digits) and card_prefix_valid(digits)):
            out.append(Candidate("CARD", m.start(), m.end()))
    return out


def find_ibans(text: str) -> list[Candidate]:
    out: list[Candidate] = []
    for m in _IBAN.finditer(text):
        span = m.group()
        # The longest valid prefix: a spaced IBAN may run into the next word ("... 00 LT").
        for end in range(len(span), 14, -1):
            piece = span[:end].rstrip()
            if iban_valid(piece.replace(" ", "")):
                out.append(Candidate("IBAN", m.start(), m.start() + len(piece)))
                break
    return out


def find_ssns(text: str) -> list[Candidate]:
    out = [Candidate("SSN", m.start(), m.end()) for m in _SSN.finditer(text)]
    out += [Candidate("SSN", m.start(1), m.end(1)) for m in _SSN_BARE.finditer(text)]
    return out


def _may_identify(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Loopback, "any", broadcast and netmasks identify nobody; a learner asking what
    127.0.0.1 or 255.255.255.0 means should be answered, not scrubbed."""
    if ip.is_loopback or ip.is_unspecified:
        return False
    if isinstance(ip, ipaddress.IPv4Address):
        bits = int(ip)
        inverted = ~bits & 0xFFFFFFFF
        if bits and (inverted & (inverted + 1)) == 0:  # 255.255.255.0, 255.255.255.255, ...
            return False
    return True


def _is_network(address: str, prefix: str | None) -> bool:
    """``10.0.0.0/8``: a network range (host bits zero), not somebody's machine."""
    if not prefix:
        return False
    try:
        ipaddress.ip_network(address + prefix, strict=True)
    except ValueError:
        return False
    return True


def find_ips(text: str) -> list[Candidate]:
    out: list[Candidate] = []
    for m in _IPV4.finditer(text):
        address = m.group()[: m.end() - m.start() - len(m.group(1) or "")]
        ip = ipaddress.IPv4Address(address)
        if _may_identify(ip) and not _is_network(address, m.group(1)):
            out.append(Candidate("IP", m.start(), m.start() + len(address)))
    for m in _IPV6.finditer(text):
        address = m.group()[: m.end() - m.start() - len(m.group(1) or "")]
        hex_groups = [g for g in re.split(r"[:.]", address) if g]
        if len(hex_groups) < 2 or sum(len(g) for g in hex_groups) < 3:
            continue  # "a::b", "::2" (a slice), a clock time: too little to be an address
        try:
            ip6 = ipaddress.IPv6Address(address)
        except ValueError:
            continue
        if _may_identify(ip6) and not _is_network(address, m.group(1)):
            out.append(Candidate("IP", m.start(), m.start() + len(address)))
    return out
