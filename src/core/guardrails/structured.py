"""Detectors for the structured identifiers: e-mail addresses, payment cards
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
from studyhall.core.guardrails.phones import find_phones

__all__ = ["find_cards", "find_emails", "find_ibans", "find_ips", "find_phones", "find_ssns"]

_EMAIL = LazyPattern(
    r"(?<![\w.%+-])[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}@"
    r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}(?![\w-])"
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
