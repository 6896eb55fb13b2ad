"""Check digits that separate real identifiers from look-alike digit runs: Luhn (payment
cards), ISO 13616 mod-97 (IBANs, with each country's fixed length) and card number prefixes."""

from __future__ import annotations

# ISO 13616 registry: the length of a whole IBAN per country code.
IBAN_LENGTHS: dict[str, int] = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22,
    "BI": 27, "BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DJ": 27,
    "DK": 18, "DO": 28, "EE": 20, "EG": 29, "ES": 24, "FI": 18, "FK": 18, "FO": 18, "FR": 27,
    "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28, "HR": 21, "HU": 28, "IE": 22,
    "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32,
    "LI": 21, "LT": 20, "LU": 20, "LV": 21, "LY": 25, "MC": 27, "MD": 24, "ME": 22, "MK": 19,
    "MN": 20, "MR": 27, "MT": 31, "MU": 30, "NI": 28, "NL": 18, "NO": 15, "OM": 23, "PK": 24,
    "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "RU": 33, "SA": 24, "SC": 31,
    "SD": 18, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "SO": 23, "ST": 25, "SV": 28, "TL": 23,
    "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20, "YE": 30,
}


def luhn_valid(digits: str) -> bool:
    """The Luhn check every payment card number passes (``digits`` holds digits only)."""
    if not digits.isdigit():
        return False
    total = 0
    for k, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if k % 2 == 1:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def card_prefix_valid(digits: str) -> bool:
    """True when the number's prefix and length belong to a card network (Visa, Mastercard,
    American Express, Discover, Diners, JCB, Maestro, UnionPay), so a random run of digits that
    happens to pass Luhn (one in ten do) is not taken for a card."""
    n = len(digits)
    if n < 12:
        return False
    two, three, four, six = (int(digits[:k]) for k in (2, 3, 4, 6))
    if digits[0] == "4":
        return n in (13, 16, 19)  # Visa
    if 51 <= two <= 55 or 222100 <= six <= 272099:
        return n == 16  # Mastercard
    if two in (34, 37):
        return n == 15  # American Express
    if four == 6011 or two == 65 or 644 <= three <= 649 or 622126 <= six <= 622925:
        return 16 <= n <= 19  # Discover
    if 300 <= three <= 305 or two in (36, 38, 39) or four == 3095:
        return 14 <= n <= 19  # Diners Club
    if two == 35:
        return 16 <= n <= 19  # JCB (3528-3589, and the 35xx test ranges)
    if four in (2131, 1800):
        return n == 15  # JCB's older 15-digit ranges
    if two == 62:
        return 16 <= n <= 19  # UnionPay
    if two in (50, 56, 57, 58, 63, 67) or four in (604, 6304, 6390, 6759, 6761, 6762, 6763):
        return 12 <= n <= 19  # Maestro
    return False


def iban_valid(compact: str) -> bool:
    """An IBAN without spaces: a known country, its exact length, and mod 97 == 1."""
    compact = compact.upper()
    expected = IBAN_LENGTHS.get(compact[:2])
    if expected is None or len(compact) != expected or not compact[2:4].isdigit():
        return False
    if not compact.isalnum() or not compact.isascii():
        return False
    rearranged = compact[4:] + compact[:4]
    number = "".join(str(int(ch, 36)) for ch in rearranged)
    return int(number) % 97 == 1
