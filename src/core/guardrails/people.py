"""Person names found without a model: rules over capitalised words.

A name counts when its context says it is one (an honorific, "my name is", "my friend ...",
a letter's greeting or sign-off), or when it is a known given name followed by a surname-like
word. Known names that are also everyday words ("Will", "May", "Mark") need a known surname
after them; a pair followed by "Theorem", "Law", "Method"... names a concept, not a person;
a short list of famous people (whom learners study, and a model must be able to name) stays.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from studyhall.core.guardrails.addresses import STRONG_SUFFIXES, WEAK_SUFFIXES
from studyhall.core.guardrails.findings import Candidate
from studyhall.core.guardrails.first_names import FIRST_NAMES
from studyhall.core.guardrails.lazy_regex import LazyPattern
from studyhall.core.guardrails.people_words import (
    AMBIGUOUS_FIRST,
    CONCEPT_WORDS,
    FAMOUS,
    FAMOUS_FULL_NAMES,
    HONORIFICS,
    NOT_NAMES,
    PARTICLES,
)
from studyhall.core.guardrails.surnames import SURNAMES

# A famous surname alone marks a famous person only when it is not also a common family name.
_FAMOUS_SURNAMES = FAMOUS - SURNAMES
_STREET_SUFFIXES = frozenset(STRONG_SUFFIXES) | frozenset(WEAK_SUFFIXES)
_HOUSE_NUMBER = LazyPattern(r"\d{1,6}[A-Za-z]?[ ]+$")
# Only words that can be part of a name are tokens: capitalised words and particles. A skipped
# lowercase word leaves a gap between its neighbours, so they are never "joined" into a name.
_TOKEN = LazyPattern(
    r"(?<![^\W\d_])(?:[A-ZÀ-ÖØ-ÞĀ-ɏ]|(?:" + "|".join(sorted(PARTICLES)) + r")\b)"
    r"[^\W\d_]*(?:['’-][^\W\d_]+)*\.?"
)
_CUE_NAMED = LazyPattern(
    r"(?:\bmy name(?:'s| is)|\bi(?:'m| am) called|\bcall me|\bsigned|\bdear|\bnamed|\bcalled"
    r"|\bmy (?:best )?(?:friend|teacher|tutor|professor|lecturer|classmate|roommate|flatmate"
    r"|mom|mum|mother|dad|father|brother|sister|son|daughter|wife|husband|partner|boss"
    r"|colleague|coworker|neighbou?r|coach|cousin|aunt|uncle|grandma|grandpa|boyfriend"
    r"|girlfriend|manager|advisor|adviser|supervisor|student|doctor|landlord|landlady)s?)"
    r"[ ]*,?[ ]*",
    re.IGNORECASE,
)
_CUE_KNOWN = LazyPattern(r"(?:\bi(?:'m| am)|\bthis is|\bhi|\bhello|\bhey|\bthanks|\bask)[ ]*,?[ ]*",
                         re.IGNORECASE)
_SIGN_OFF = LazyPattern(
    r"(?:regards|sincerely|thanks|thank you|cheers|best|best wishes|love|yours|warmly|"
    r"yours truly|kind regards)[ ]*,[ ]*\n?[ ]*",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class _Token:
    text: str  # without a trailing possessive 's or full stop
    start: int
    end: int


def _tokens(text: str) -> list[_Token]:
    out = []
    for m in _TOKEN.finditer(text):
        word, end = m.group(), m.end()
        if word.endswith(".") and len(word) > 2:  # "Smith." ends a sentence; "J." is an initial
            word, end = word[:-1], end - 1
        for suffix in ("'s", "’s"):
            if word.endswith(suffix):
                word, end = word[: -len(suffix)], end - len(suffix)
        out.append(_Token(word, m.start(), end))
    return out


def _title_case(word: str) -> bool:
    return word[:1].isupper() and any(ch.islower() for ch in word)


def _capitalised(word: str) -> bool:
    """A word that can open a name ("I'm" and "Don't" can't)."""
    return _title_case(word) and word not in NOT_NAMES and "'" not in word[:2] \
        and "’" not in word[:2] and not word.endswith(("n't", "n’t"))


def _continues(word: str, known_first: bool) -> bool:
    """A word that can carry a name on: "West" after "Kanye" is a surname, not a direction;
    "Field" is a surname after "Sally" but a concept after "Higgs"."""
    if not _title_case(word):
        return False
    if word in CONCEPT_WORDS:
        return known_first and word in SURNAMES
    return word in SURNAMES or word not in NOT_NAMES


def _initial(word: str) -> bool:
    return len(word) == 2 and word[0].isupper() and word[1] == "."


def _joined(text: str, a: _Token, b: _Token) -> bool:
    """Two words of one name: only spaces between them (no comma, no line break)."""
    gap = text[a.end:b.start]
    return 0 < len(gap) <= 2 and gap.strip(" ") == ""


def _extent(text: str, tokens: list[_Token], i: int, limit: int = 4) -> int:
    """Index after the name that starts at ``tokens[i]``: capitalised words, initials and
    particles ("van", "de") in between, joined by spaces."""
    known_first = tokens[i].text in FIRST_NAMES
    j = i + 1
    while j < len(tokens) and j - i < limit and _joined(text, tokens[j - 1], tokens[j]):
        word = tokens[j].text
        if _continues(word, known_first) or _initial(word):
            j += 1
        elif word in PARTICLES:
            k = j  # "van der Berg": particles, then the name they belong to
            while k + 1 < len(tokens) and tokens[k].text in PARTICLES \
                    and _joined(text, tokens[k], tokens[k + 1]):
                k += 1
            if k == j or not _continues(tokens[k].text, known_first):
                break
            j = k + 1
        else:
            break
    while j > i + 1 and tokens[j - 1].text in PARTICLES:
        j -= 1
    return j


def _concept_follows(text: str, tokens: list[_Token], j: int) -> bool:
    return (j < len(tokens) and tokens[j].text in CONCEPT_WORDS
            and _joined(text, tokens[j - 1], tokens[j]))


def _famous(tokens: list[_Token]) -> bool:
    names = [t.text for t in tokens]
    return " ".join(names) in FAMOUS_FULL_NAMES or any(n in _FAMOUS_SURNAMES for n in names)


def _street(text: str, tokens: list[_Token]) -> bool:
    """"4120 Xavier Lock": a street name after a house number, not a person."""
    return tokens[-1].text in _STREET_SUFFIXES and bool(
        _HOUSE_NUMBER.search(text[max(0, tokens[0].start - 8):tokens[0].start]))


@dataclass(frozen=True)
class _Cues:
    """Where a cue ends, so "is a cue right before this word?" is a set lookup."""

    named: frozenset[int]
    known: frozenset[int]

    @classmethod
    def of(cls, text: str) -> _Cues:
        named = {m.end() for p in (_CUE_NAMED, _SIGN_OFF) for m in p.finditer(text)}
        return cls(frozenset(named), frozenset(m.end() for m in _CUE_KNOWN.finditer(text)))


def find_people(text: str) -> list[Candidate]:
    tokens = _tokens(text)
    cues = _Cues.of(text)
    out: list[Candidate] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.text in HONORIFICS:
            end = _after_honorific(text, tokens, i)
            if end > i + 1:  # the name only: "Dr. <PERSON_1>" keeps the title for the model
                out.append(Candidate("PERSON", tokens[i + 1].start, tokens[end - 1].end))
            i = end
            continue
        end = _match_at(text, tokens, i, cues)
        if end > i:
            out.append(Candidate("PERSON", tok.start, tokens[end - 1].end))
            i = end
        else:
            i += 1
    return out


def _after_honorific(text: str, tokens: list[_Token], i: int) -> int:
    """Index after the name that follows the honorific ``tokens[i]`` (``i + 1`` if none)."""
    if i + 1 >= len(tokens):
        return i + 1
    nxt = tokens[i + 1]
    gap = text[tokens[i].end:nxt.start]
    if gap.strip(" .") != "" or "\n" in gap or not _continues(nxt.text, False):
        return i + 1
    j = _extent(text, tokens, i + 1, limit=3)
    if _concept_follows(text, tokens, j) or _famous(tokens[i + 1:j]):
        return i + 1
    return j


def _match_at(text: str, tokens: list[_Token], i: int, cues: _Cues) -> int:
    """Index after the name starting at ``tokens[i]``, or ``i`` when no rule finds one."""
    tok = tokens[i]
    if not _capitalised(tok.text):
        return i
    j = _extent(text, tokens, i)
    if tok.start in cues.named:
        return j
    if tok.start in cues.known and tok.text in FIRST_NAMES and tok.text not in AMBIGUOUS_FIRST:
        return j
    if j - i < 2 or _concept_follows(text, tokens, j):
        return i
    surname_known = any(t.text in SURNAMES for t in tokens[i + 1:j])
    if tok.text in FIRST_NAMES:
        if tok.text in AMBIGUOUS_FIRST and not surname_known:
            return i
    elif not (surname_known and _initial_or_name(tokens[i].text)):
        return i
    return i if _famous(tokens[i:j]) or _street(text, tokens[i:j]) else j


def _initial_or_name(word: str) -> bool:
    """An unknown first word before a known surname: a name if it is spelled like one."""
    return len(word) > 1 and word.replace("-", "").isalpha() and word not in NOT_NAMES
