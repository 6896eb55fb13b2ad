"""Linear-time scanners for the markup rules of ``prose.plain``: each one replaces exactly what
its regular expression (quoted in its docstring) replaces with ``pattern.sub``.

Why not the regular expressions: Python's ``re`` retries a failed pattern at every following
start, and each of these patterns scans far before it fails (``\\[\\[[^\\]]*\\]\\]`` runs to the
next ``]`` from every ``[[``), so a line of 6,000 ``[[`` cost ~n²/2 steps (10 s for 12 KB);
the backtick rule also backtracks inside one start (~n³). Possessive quantifiers and atomic
groups stop backtracking inside one attempt, not the retries at every start, so these are
small hand scanners instead. Each start costs O(log n): the next closer after a position is
found by bisection over the closers' positions, which are listed once with linear,
fixed-width lookaround patterns. ``tests/unit/notes/test_markup_scanners.py`` checks every
scanner against its old pattern on random markup.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Iterator

Span = tuple[int, int, str]  # (start, end, replacement)
# Markup is read in the first 20,000 characters of a line or sentence (a paragraph of ~3,000
# words); past that, text is plain. Every scanner is linear, but its work per character is in
# Python: the bound keeps a 2 MB single-line note from costing seconds for a few hundred
# characters of node text (callers clip plain text to 300 characters).
MAX_MARKUP = 20_000


class _Next:
    """The first position >= p that holds one of ``chars``, by bisection (-1: none)."""

    __slots__ = ("_at",)

    def __init__(self, text: str, chars: str) -> None:
        self._at = [m.start() for m in re.finditer("[" + re.escape(chars) + "]", text)]

    def at(self, p: int) -> int:
        i = bisect_left(self._at, p)
        return self._at[i] if i < len(self._at) else -1


def _apply(text: str, spans: Iterator[Span]) -> str:
    pieces: list[str] = []
    last = 0
    for start, end, repl in spans:
        pieces += [text[last:start], repl]
        last = end
    if not pieces:
        return text
    pieces.append(text[last:])
    return "".join(pieces)


def _scan(text: str, opener: str, match_at: Callable[[int], Span | None]) -> str:
    """``pattern.sub`` for a pattern that starts with the literal ``opener``: try every start
    left to right, and after a match go on where it ends (matches never overlap)."""
    if opener not in text:
        return text

    def spans() -> Iterator[Span]:
        i = text.find(opener)
        while i != -1:
            span = match_at(i)
            if span is not None:
                yield span
            i = text.find(opener, span[1] if span is not None else i + 1)

    return _apply(text, spans())


def strip_embeds(text: str) -> str:
    """``!\\[\\[[^\\]]*\\]\\]`` -> "": the first ``]`` after ``![[`` must be a ``]]``."""
    close = _Next(text, "]")

    def at(i: int) -> Span | None:
        j = close.at(i + 3)
        return (i, j + 2, "") if j != -1 and text.startswith("]", j + 1) else None

    return _scan(text, "![[", at)


def wikilinks(text: str, label: Callable[[str, str | None, str | None], str]) -> str:
    """``\\[\\[([^\\]|#]*)(?:#([^\\]|]*))?(?:\\\\?\\|([^\\]]*))?\\]\\]`` -> ``label(target,
    heading, alias)``. Each part runs to its first stop character and nothing it could give
    back would let the rest match, so one pass decides (a ``\\`` before ``|`` stays in the part
    before it, as the greedy pattern leaves it)."""
    target_end, heading_end, close = _Next(text, "]|#"), _Next(text, "]|"), _Next(text, "]")

    def at(i: int) -> Span | None:
        p = target_end.at(i + 2)
        if p == -1:
            return None
        target, heading, alias = text[i + 2 : p], None, None
        if text[p] == "#":
            q = heading_end.at(p + 1)
            if q == -1:
                return None
            heading, p = text[p + 1 : q], q
        if text[p] == "|":
            q = close.at(p + 1)
            if q == -1:
                return None
            alias, p = text[p + 1 : q], q
        if text.startswith("]]", p):
            return (i, p + 2, label(target, heading, alias))
        return None

    return _scan(text, "[[", at)


def _bracket_paren(text: str, opener: str, keep_label: bool) -> str:
    """``OPENER[^\\]]*\\]\\([^)]*\\)``: the first ``]`` after the opener, a ``(`` right after
    it, then the first ``)``; the replacement is the bracketed label or nothing."""
    close, paren = _Next(text, "]"), _Next(text, ")")

    def at(i: int) -> Span | None:
        j = close.at(i + len(opener))
        if j == -1 or not text.startswith("(", j + 1):
            return None
        k = paren.at(j + 2)
        if k == -1:
            return None
        return (i, k + 1, text[i + len(opener) : j] if keep_label else "")

    return _scan(text, opener, at)


def strip_images(text: str) -> str:
    """``!\\[[^\\]]*\\]\\([^)]*\\)`` -> ""."""
    return _bracket_paren(text, "![", keep_label=False)


def link_labels(text: str) -> str:
    """``\\[([^\\]]*)\\]\\([^)]*\\)`` -> the label."""
    return _bracket_paren(text, "[", keep_label=True)


def strip_footnotes(text: str) -> str:
    """``\\[\\^[^\\]]*\\]`` -> ""."""
    close = _Next(text, "]")

    def at(i: int) -> Span | None:
        j = close.at(i + 2)
        return (i, j + 1, "") if j != -1 else None

    return _scan(text, "[^", at)


def strip_tags(text: str) -> str:
    """``<[^>\\n]+>`` -> "": the first ``>`` or line break after ``<`` must be a ``>``, and
    not right after it."""
    stop = _Next(text, ">\n")

    def at(i: int) -> Span | None:
        j = stop.at(i + 1)
        return (i, j + 1, "") if j > i + 1 and text[j] == ">" else None

    return _scan(text, "<", at)


class Emphasis:
    """``(D1|D2)(\\S(?:.*?\\S)?)\\1`` with context (lookarounds) at both ends -> the content.

    The pattern's own order: the optional ``(?:.*?\\S)`` is tried first, so the shortest
    content of two or more characters wins, and only when none closes on the line does a
    one-character content; a content never holds a line break. ``openers`` and ``closers``
    are zero-width patterns that find where a delimiter may open (with a non-space after it)
    and where one may close (with a non-space before it)."""

    def __init__(self, delimiters: tuple[str, ...], openers: str, closers: str) -> None:
        self.delimiters = delimiters
        self._open = re.compile(openers)
        self._close = re.compile(closers)

    def sub(self, text: str) -> str:
        width = len(self.delimiters[0])
        closers: dict[str, list[int]] = {d: [] for d in self.delimiters}
        for m in self._close.finditer(text):
            closers[text[m.start() : m.start() + width]].append(m.start())
        closer_sets = {d: frozenset(ks) for d, ks in closers.items()}
        newline = _Next(text, "\n")

        def spans() -> Iterator[Span]:
            pos = 0
            for m in self._open.finditer(text):
                i = m.start()
                if i < pos:
                    continue
                d, c = text[i : i + width], i + width
                nl = newline.at(c)
                ks = closers[d]
                k_at = bisect_left(ks, c + 2)
                k = ks[k_at] if k_at < len(ks) else -1
                if k == -1 or (nl != -1 and k > nl):
                    k = c + 1 if c + 1 in closer_sets[d] else -1
                if k != -1:
                    yield (i, k + width, text[c:k])
                    pos = k + width

        return _apply(text, spans())


STRONG = Emphasis(("**", "__"), r"(?=\*\*\S|__\S)", r"(?<=\S)(?=\*\*|__)")
ITALIC_STAR = Emphasis(("*",), r"(?<![\w*])\*(?=\S)", r"(?<=\S)\*(?![\w*])")
ITALIC_UNDERSCORE = Emphasis(("_",), r"(?<!\w)_(?=\S)", r"(?<=\S)_(?!\w)")
STRIKE_HIGHLIGHT = Emphasis(("~~", "=="), r"(?=~~\S|==\S)", r"(?<=\S)(?=~~|==)")


def code_spans(text: str, park: Callable[[str], str]) -> str:
    """``(`+)(.+?)\\1`` -> ``park(content)``, line by line (a match never holds a line
    break). At a start with ``r`` backticks the pattern tries ``g = r, r-1, ... 1`` opening
    backticks and, for each, the first later ``g`` backticks: a later run of ``>= g``, or,
    when ``2g + 1 <= r``, the opening run's own tail. So the largest ``g`` wins: ``min(r, M)``
    (``M`` the longest later run on the line) if that is at least ``r / 2``, else
    ``(r - 1) // 2`` inside the run; with no later run and ``r <= 2`` nothing on the rest of
    the line can match."""
    if "`" not in text:
        return text
    return "\n".join(_code_line(line, park) if "`" in line else line
                     for line in text.split("\n"))


_RUN = re.compile(r"`+")


def _code_line(line: str, park: Callable[[str], str]) -> str:
    runs = [(m.start(), m.end()) for m in _RUN.finditer(line)]
    longest_after = [0] * (len(runs) + 1)  # the longest run after run k
    for k in range(len(runs) - 1, -1, -1):
        longest_after[k] = max(longest_after[k + 1], runs[k + 1][1] - runs[k + 1][0]
                               if k + 1 < len(runs) else 0)

    def spans() -> Iterator[Span]:
        k, i = 0, runs[0][0]
        while k < len(runs):
            i = max(i, runs[k][0])
            run_end = runs[k][1]
            if i >= run_end:
                k += 1
                continue
            r, later = run_end - i, longest_after[k]
            g = min(r, later)
            if later and 2 * g >= r:
                e = k + 1
                while runs[e][1] - runs[e][0] < g:
                    e += 1
                start = runs[e][0]
                yield (i, start + g, park(line[i + g : start]))
                i, k = start + g, e
            elif r >= 3:
                g = (r - 1) // 2
                yield (i, i + 2 * g + 1, park(line[i + g : i + g + 1]))
                i += 2 * g + 1
            else:
                return

    return _apply(line, spans()) if runs else line
