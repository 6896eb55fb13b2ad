"""Street addresses, US style, found without a model: a house number, a capitalised street
name and a street suffix, with an optional unit and "City, ST 12345" line; also PO boxes and
military (APO/FPO/DPO) addresses. Suffixes that are ordinary words ("Points", "View", "Key")
count only with a unit or a city line after them, or after words that announce an address
("I live at", "ship it to"), so "3 Key Points" stays prose.
"""

from __future__ import annotations

import re

from studyhall.core.guardrails.findings import Candidate
from studyhall.core.guardrails.lazy_regex import LazyPattern

# Suffixes that almost only ever end a street name.
_STRONG = (
    "Street St Avenue Ave Av Road Rd Boulevard Blvd Lane Ln Drive Dr Court Ct Place Pl "
    "Terrace Ter Parkway Pkwy Highway Hwy Circle Cir Crescent Cres Square Sq Trail Trl Way "
    "Alley Causeway Expressway Freeway Turnpike Stravenue Motorway Mews Close Gardens Grove "
    "Plaza Heights Crossing Junction Hollow Ridge Manor Estates Glen Underpass Overpass Skyway "
    "Throughway Trafficway Viaduct Highway Bypass Loop"
)
STRONG_SUFFIXES = _STRONG.split()
# USPS suffixes that are also everyday words: need a unit or a city line to count.
_WEAK = (
    "Branch Bridge Brook Brooks Burg Burgs Camp Canyon Cape Center Centers Circles Cliff "
    "Cliffs Club Common Corner Corners Course Courts Cove Coves Creek Crest Crossroad Curve "
    "Dale Dam Divide Drives Estate Extension Extensions Fall Falls Ferry Field Fields Flat Flats "
    "Ford Fords Forest Forge Forges Fork Forks Fort Garden Gateway Glens Green Greens Groves "
    "Harbor Harbors Haven Hill Hills Inlet Island Islands Isle Junctions Key Keys Knoll Knolls "
    "Lake Lakes Land Landing Light Lights Loaf Lock Locks Lodge Mall Manors Meadow Meadows Mill "
    "Mills Mission Mount Mountain Mountains Neck Orchard Oval Park Parks Parkways Pass Passage "
    "Path Pike Pine Pines Plain Plains Point Points Port Ports Prairie Radial Ramp Ranch Rapid "
    "Rapids Rest Ridges River Roads Route Row Rue Run Shoal Shoals Shore Shores Spring Springs "
    "Spur Spurs Squares Station Stream Streets Summit Trace Track Tunnel Union Unions Valley "
    "Valleys Via View Views Village Villages Ville Vista Walk Walks Wall Ways Well Wells"
)
WEAK_SUFFIXES = _WEAK.split()


def _alternation(words: list[str]) -> str:
    return "|".join(sorted({re.escape(w) for w in words}, key=len, reverse=True))


_NUMBER = r"(?<![\w.,-])\d{1,6}(?:-\d{1,4})?[A-Za-z]?"
_DIRECTION = r"(?:(?:[NSEW]|NE|NW|SE|SW|North|South|East|West)\.?[ ]+)?"
_NAME = r"(?:(?:[A-Z][A-Za-z'-]*|\d{1,3}(?:st|nd|rd|th))[ ]+){1,3}"
_POST_DIRECTION = r"(?:[ ]+(?:NE|NW|SE|SW|N|S|E|W)\b)?"
_UNIT = r"(?:,?[ ]+(?:Apt\.?|Apartment|Suite|Ste\.?|Unit|Floor|Fl\.?|Room|Rm\.?|#)[ ]*#?\w{1,6})"
_CITY_LINE = (
    r"(?:[ ]*,[ ]*|[ ]*\n[ ]*|[ ]+)[A-Z][a-z]+(?:[ -][A-Z][a-z]+){0,3},[ ]+[A-Z]{2}[ ]+"
    r"\d{5}(?:-\d{4})?(?!\w)"
)
_STREET_STRONG = LazyPattern(
    _NUMBER + r"[ ]+" + _DIRECTION + _NAME + rf"(?:{_alternation(STRONG_SUFFIXES)})\b\.?"
    + _POST_DIRECTION + _UNIT + "?" + f"(?:{_CITY_LINE})?"
)
_STREET_WEAK = LazyPattern(
    _NUMBER + r"[ ]+" + _DIRECTION + _NAME + rf"(?:{_alternation(WEAK_SUFFIXES)})\b"
    + _POST_DIRECTION + rf"(?:{_UNIT}(?:{_CITY_LINE})?|{_CITY_LINE})"
)
# A weak-suffix street with neither unit nor city line, when the words before say "address".
_STREET_WEAK_BARE = LazyPattern(
    _NUMBER + r"[ ]+" + _DIRECTION + _NAME + rf"(?:{_alternation(WEAK_SUFFIXES)})\b"
    + _POST_DIRECTION
)
_ADDRESS_CUE = LazyPattern(
    r"(?:\blive[sd]? (?:at|on)|\baddress(?:es)?(?: is| was)?:?|\bship(?:ped|ping)?\b[^\n]{0,30}"
    r"\bto|\bsen[dt]\b[^\n]{0,30}\bto|\bdeliver(?:ed|y)?\b[^\n]{0,30}\bto|\blocated at|"
    r"\bmoved to|\bmail(?:ed)?\b[^\n]{0,30}\bto|\bhouse (?:is )?(?:at|on)|\band to|\bat)"
    r"[ ]*$",
    re.IGNORECASE,
)
_MILITARY = LazyPattern(
    r"(?:(?:USNS|USNV|USS|USCGC)[ ]+[A-Z][A-Za-z'-]+|PSC[ ]+\d{4},?[ ]+Box[ ]+\d{4}"
    r"|Unit[ ]+\d{4}[ ]+Box[ ]+\d{4})[ ]*,?\s*[AFD]PO[ ]+A[AEP][ ]+\d{5}(?!\w)"
)
_PO_BOX = LazyPattern(
    r"\bP\.?[ ]?O\.?[ ]+Box[ ]+\d{1,6}" + f"(?:{_CITY_LINE})?", re.IGNORECASE
)


def find_addresses(text: str) -> list[Candidate]:
    out: list[Candidate] = []
    for pattern in (_STREET_STRONG, _STREET_WEAK, _MILITARY, _PO_BOX):
        out += [Candidate("ADDRESS", m.start(), m.end()) for m in pattern.finditer(text)]
    for m in _STREET_WEAK_BARE.finditer(text):
        if _ADDRESS_CUE.search(text[max(0, m.start() - 50):m.start()]):
            out.append(Candidate("ADDRESS", m.start(), m.end()))
    return out
