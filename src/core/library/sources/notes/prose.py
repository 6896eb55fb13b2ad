"""Prose out of Markdown: sentences of a block (raw, for verbatim quotes) and their plain text.

The raw sentence is what evidence quotes; the plain text (links shown as their label, markup
removed) is what a node says.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial

from studyhall.core.library.sources.notes import markup_scan as scan
from studyhall.core.library.sources.notes.markup_scan import MAX_MARKUP

# Each rule with the substrings one of which every match of it contains: ``plain`` runs on every
# sentence of a vault and most hold little markup, so a rule none of whose substrings is in the
# text so far cannot match and is skipped (same result, a third of the import's parse time).
# The bracket and emphasis rules are linear scanners (``markup_scan``: their old patterns cost
# ~n² on a line of openers); the patterns left here cost one pass: each start's attempt stops
# within its own run of characters (a comment at the next ``%%``, a tag at the end of its word).
_TAG = re.compile(r"(?:(?<=\s)|^)#([\w/-]*[^\W\d][\w/-]*)", re.UNICODE)
_Rule = Callable[[str], str]
_RULES: tuple[tuple[tuple[str, ...], _Rule], ...] = (
    (("%%",), partial(re.compile(r"%%.*?%%").sub, "")),  # Obsidian comments
    (("![[",), scan.strip_embeds),
    (("[[",), lambda text: scan.wikilinks(text, _wiki)),
    (("![",), scan.strip_images),
    (("[^",), scan.strip_footnotes),
    (("](",), scan.link_labels),  # Markdown links -> their text
    (("<",), scan.strip_tags),  # inline HTML tags
    (("**", "__"), scan.STRONG.sub),
    (("*",), scan.ITALIC_STAR.sub),
    (("_",), scan.ITALIC_UNDERSCORE.sub),
    (("~~", "=="), scan.STRIKE_HIGHLIGHT.sub),
    (("^",), partial(re.compile(r"\s\^[A-Za-z0-9-]+\s*$").sub, "")),  # a trailing block id
    (("#",), partial(_TAG.sub, r"\1")),  # tags
    (("[",), partial(re.compile(r"^\[[ xX]\]\s+").sub, "")),  # task checkbox
)
_PARKED = re.compile("\x01(\\d+)\x02")
_FENCES = ("```", "~~~")
_LINE_MARKER = re.compile(
    r"^\s*(?:>\s*)*(?:#{1,6}\s+|[-*+]\s+(?:\[[ xX]\]\s+)?|\d+[.)]\s+)?(?:\[!\w+\][+-]?\s*)?")
_SPACE_BEFORE_PUNCT = re.compile(r"\s+([.,;:!?])(?=\s|$)")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_SENTENCE_END = re.compile(r"[.!?](?=\s)")  # a candidate end: the rest is checked in Python
_ABBREVIATIONS = frozenset(
    [
        "e.g",
        "i.e",
        "etc",
        "vs",
        "cf",
        "al",
        "fig",
        "eq",
        "dr",
        "mr",
        "mrs",
        "ms",
        "prof",
        "st",
        "no",
        "approx",
        "ca",
        "resp",
        "incl",
    ]
)
MAX_TEXT = 300


def _wiki(target: str, heading: str | None, alias: str | None) -> str:
    if alias:
        return alias.strip()
    name = target.strip().rsplit("/", 1)[-1]
    for ext in (".md", ".markdown"):
        if name.lower().endswith(ext):
            name = name[: -len(ext)]
    return name or (heading or "").strip().lstrip("^")


def plain(text: str) -> str:
    """What a reader sees: markup removed, links as their label, whitespace collapsed.

    Markup is read in the first ``MAX_MARKUP`` characters; the rest of a longer text is kept
    as written (every caller clips the result to a few hundred characters anyway, and the
    scanners' work per character is what a hostile note could otherwise multiply)."""
    # Code spans first, parked as placeholders: what is inside code is shown as written. The
    # placeholders' control characters mean nothing in a note, so any already there go first
    # (a note holding "\x01" "7" "\x02" must not be read as a parked span).
    if "\x01" in text or "\x02" in text:
        text = text.replace("\x01", "").replace("\x02", "")
    text, rest = text[:MAX_MARKUP], text[MAX_MARKUP:]
    spans: list[str] = []

    def park(content: str) -> str:
        spans.append(content.strip())
        return f"\x01{len(spans) - 1}\x02"

    out = scan.code_spans(text, park)
    for needles, rule in _RULES:
        for needle in needles:
            if needle in out:
                out = rule(out)
                break
    if "\x01" in out:
        out = _PARKED.sub(lambda m: spans[int(m.group(1))], out)
    out = _SPACE_BEFORE_PUNCT.sub(r"\1", " ".join((out + rest).split()))
    return out.strip()


def readable(markdown: str) -> str:
    """A Markdown passage as one run of text to read: each line without its list, quote or
    heading marker and in plain text (``plain``); a code block's lines kept as written, without
    its fences. Linear: one pass over the lines, ``plain`` on each."""
    out, fenced = [], False
    for line in markdown.splitlines():
        if line.lstrip().startswith(_FENCES):
            fenced = not fenced
        elif fenced:
            out.append(line.strip())
        else:
            out.append(plain_line(line))
    return " ".join(line for line in out if line)


def plain_line(line: str) -> str:
    """One line of Markdown in plain text, without its list, quote, heading or callout marker."""
    return plain(_LINE_MARKER.sub("", line, count=1))


def word_count(text: str) -> int:
    return len(_WORD.findall(text))


def clip(text: str, limit: int = MAX_TEXT) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def sentences(text: str) -> list[str]:
    """Split raw prose at sentence ends (., !, ? then space then a capital or digit), keeping
    abbreviations such as "e.g." and initials whole. Returns raw substrings, stripped."""
    out: list[str] = []
    start = 0
    n = len(text)
    for end in _SENTENCE_END.finditer(text):
        i = end.start()
        if i < start:
            continue
        j = i + 1
        while j < n and text[j].isspace():
            j += 1
        k = j
        while k < n and text[k] in "\"'([*_":
            k += 1
        nxt = text[k] if k < n else ""
        if (nxt.isupper() or nxt.isdigit()) and not _abbreviation(text, start, i):
            piece = text[start : i + 1].strip()
            if piece:
                out.append(piece)
            start = j
    tail = text[start:].strip()
    if tail:
        out.append(tail)
    return out


def _abbreviation(text: str, start: int, dot: int) -> bool:
    if text[dot] != ".":
        return False
    k = dot
    while k > start and not text[k - 1].isspace():
        k -= 1
    word = text[k:dot].lower().strip("([\"'*_")
    return word in _ABBREVIATIONS or (len(word) == 1 and word.isalpha())
