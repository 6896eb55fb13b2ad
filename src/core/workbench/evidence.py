"""Is a claim backed by its evidence? A verbatim quote from the material, and a word-level test.

A card's (or a study guide entry's) ``evidence`` must be a quote from one of the texts the writer
was given (graph propositions, imported passages). Matching forgives what copying changes:
case, runs of whitespace, typographic quotes and dashes, ``*``/````` emphasis, note markup
(``[[Note|label]]`` as ``label``, ``[text](url)`` as ``text``, list, heading and quote marks at
a line's start, ``==highlights==``), quotes around
the whole quote, and ``...``/``…`` marking an elision (every piece must then occur, in order,
in the same text). A quote needs at least ``MIN_QUOTE_WORDS`` words unless it is a whole text.

The claim is backed by that quote when (content words = words of two or more letters that are
not stop words, and numbers; compared after a light suffix stripping):
1. at least half of the claim's content words occur in the quote;
2. at most one content word in five occurs neither in the quote nor in the text it came from
   (so a short claim adds no word of its own: "smallest" where the material says "largest");
3. no word is negated on one side and asserted on the other ("is not stable" / "is stable");
4. a claim too short to have content words ("O(n)") must itself occur in the quote.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

MIN_QUOTE_WORDS = 3
QUOTE_SHARE = 0.5  # of the claim's content words that must be in the quote itself
NEW_WORD_EVERY = 5  # one word in this many may be the claim's own
NEGATION_REACH = 3  # a negation governs the first content word within this many tokens

_TYPOGRAPHY = str.maketrans({
    "‘": "'", "’": "'", "‚": "'", "‛": "'", "′": "'", "`": "",
    "“": '"', "”": '"', "„": '"', "‟": '"', "″": '"', "*": "",
    "–": "-", "—": "-", "‐": "-", "‑": "-", "−": "-",
    "‹": "<", "›": ">", "\u00a0": " ",
})
# Note markup a quote may carry or drop when copied: the writer sees a note's Markdown in one
# text and its rendered words in another ("[[Backlinks|backlinks]]" / "backlinks").
_WIKILINK = re.compile(r"!?\[\[([^\[\]|#\n]{0,200})(?:#[^\[\]|\n]{0,200})?(?:\|([^\[\]\n]{0,200}))?\]\]")
_MD_LINK = re.compile(r"!?\[([^\[\]\n]{0,300})\]\([^()\s]{0,500}\)")
_MARKS = re.compile(r"==|~~|(?m:^\s{0,3}(?:[-*+]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?)|(?m:^\s{0,3}(?:#{1,6}|>)\s*)")
_ELISION = re.compile(r"\s*(?:\.\.\.|…|\[\.\.\.\]|\[…\])\s*")
_EDGE = " \"'.,;:!?-"
_WORD = re.compile(r"[^\W_]+")
_STOP_WORDS = """
a about above after again all also am an and any are as at be because been before being
below between both but by can could did do does doing down during each else for from further
had has have having he her here hers him his how i if in into is it its itself just may me
might more most must my of off on once only or other our out over own same shall she should
so some such than that the their them then there these they this those through thus to too
under until up upon us very was we were what when where which while who whom why will with
would yes you your yours one ones use used using called
"""
_STOP = frozenset(_STOP_WORDS.split())
_NEGATIONS = frozenset({"not", "no", "never", "none", "nor", "neither", "without", "cannot"})


def _plain(text: str) -> str:
    """Note markup as the words it shows: a link as its label, no list, heading or quote marks,
    no highlight or strike marks (every pattern bounded: linear on hostile text)."""
    text = _WIKILINK.sub(lambda m: m.group(2) or m.group(1), text)
    text = _MD_LINK.sub(lambda m: m.group(1), text)
    return _MARKS.sub("", text)


def normalise(text: str) -> str:
    """``text`` as quotes are compared: note markup as its words, NFKC, casefolded, plain
    punctuation, single spaces."""
    text = unicodedata.normalize("NFKC", _plain(text)).translate(_TYPOGRAPHY).casefold()
    return " ".join(text.split())


def _pieces(quote: str) -> list[str]:
    """The quote's parts between elisions, without the quotes or punctuation around them."""
    parts = [p.strip(_EDGE) for p in _ELISION.split(normalise(quote))]
    return [p for p in parts if p]


def _occurs_in_order(pieces: Sequence[str], text: str) -> bool:
    at = 0
    for piece in pieces:
        found = text.find(piece, at)
        if found < 0:
            return False
        at = found + len(piece)
    return True


def find_quote(quote: str, texts: Sequence[str]) -> str | None:
    """The text ``quote`` was copied from, or ``None`` (too short to count as a quote, or not
    in any of them)."""
    pieces = _pieces(quote)
    if not pieces:
        return None
    words = sum(len(p.split()) for p in pieces)
    for text in texts:
        flat = normalise(text)
        if not _occurs_in_order(pieces, flat):
            continue
        if words >= MIN_QUOTE_WORDS or " ".join(pieces) == flat.strip(_EDGE):
            return text
    return None


def _tokens(text: str) -> list[str]:
    text = normalise(text).replace("n't", " not").replace("cannot", "can not")
    return _WORD.findall(text)


def _stem(word: str) -> str:
    """Light suffix stripping, the same on both sides: arrays/array, stored/store/storing."""
    if word.isdigit():
        return word
    for suffix, keep in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            word = word[: -len(suffix)] + keep
            break
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


def _is_content(token: str) -> bool:
    return token.isdigit() or (len(token) >= 2 and token not in _STOP
                               and token not in _NEGATIONS)


@dataclass(frozen=True)
class _Words:
    all: frozenset[str]
    negated: frozenset[str]


def _words(text: str) -> _Words:
    tokens = _tokens(text)
    found: set[str] = set()
    negated: set[str] = set()
    for i, token in enumerate(tokens):
        if _is_content(token):
            found.add(_stem(token))
        elif token in _NEGATIONS:
            following = tokens[i + 1: i + 1 + NEGATION_REACH]
            first = next((t for t in following if _is_content(t)), None)
            if first is not None:
                negated.add(_stem(first))
    return _Words(frozenset(found), frozenset(negated))


def _shown(stems: set[str] | frozenset[str], *texts: str) -> str:
    """The words behind ``stems`` as written in ``texts`` (``stabl`` -> ``stable``)."""
    words: dict[str, str] = {}
    for text in texts:
        for token in _tokens(text):
            words.setdefault(_stem(token), token)
    return ", ".join(sorted(words.get(s, s) for s in stems))


def backing_problem(claim: str, quote: str, source: str) -> str | None:
    """Why ``claim`` is not backed by ``quote`` (found in ``source``), or ``None`` when it is."""
    said, quoted, around = _words(claim), _words(quote), _words(source)
    if not said.all:
        squeeze = "".join(normalise(claim).split()).strip(_EDGE)
        if squeeze and squeeze in "".join(normalise(quote).split()):
            return None
        return "the answer is not in its evidence"
    conflict = ((said.negated - quoted.negated) & quoted.all) \
        | ((quoted.negated - said.negated) & said.all)
    if conflict:
        return f"the answer contradicts its evidence (one negates: {_shown(conflict, claim)})"
    in_quote = said.all & quoted.all
    new = said.all - quoted.all - around.all
    if len(in_quote) < QUOTE_SHARE * len(said.all):
        return (f"the answer is not backed by its evidence ({len(in_quote)} of "
                f"{len(said.all)} words in the quote)")
    if len(new) > len(said.all) // NEW_WORD_EVERY:
        return f"the answer says what its evidence does not ({_shown(new, claim)})"
    return None


def evidence_problem(claim: str, quote: str | None, texts: Sequence[str]) -> str | None:
    """Why a claim with this ``quote`` must be dropped, or ``None`` to keep it. With nothing to
    quote (``texts`` empty) a claim without evidence stands: the writer had only its own
    knowledge, and the steer says so."""
    if quote is None or not quote.strip():
        return "no evidence quoted" if texts else None
    source = find_quote(quote, texts)
    if source is None:
        return "its evidence is not in the material"
    return backing_problem(claim, quote, source)
