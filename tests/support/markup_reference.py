"""The note markup rules as they were before the linear scanners: the regular expressions
that define what ``prose.plain`` must produce. They backtrack (~n² on a line of ``[[``), so
the differential tests run them on short random texts only."""

from __future__ import annotations

import re

RULES: tuple[tuple[tuple[str, ...], re.Pattern[str], str], ...] = (
    (("%%",), re.compile(r"%%.*?%%"), ""),
    (("![[",), re.compile(r"!\[\[[^\]]*\]\]"), ""),
    (("[[",), re.compile(r"\[\[([^\]|#]*)(?:#([^\]|]*))?(?:\\?\|([^\]]*))?\]\]"), "\x00wiki"),
    (("![",), re.compile(r"!\[[^\]]*\]\([^)]*\)"), ""),
    (("[^",), re.compile(r"\[\^[^\]]*\]"), ""),
    (("](",), re.compile(r"\[([^\]]*)\]\([^)]*\)"), r"\1"),
    (("<",), re.compile(r"<[^>\n]+>"), ""),
    (("**", "__"), re.compile(r"(\*\*|__)(\S(?:.*?\S)?)\1"), r"\2"),
    (("*",), re.compile(r"(?<![\w*])\*(\S(?:.*?\S)?)\*(?![\w*])"), r"\1"),
    (("_",), re.compile(r"(?<!\w)_(\S(?:.*?\S)?)_(?!\w)"), r"\1"),
    (("~~", "=="), re.compile(r"(~~|==)(\S(?:.*?\S)?)\1"), r"\2"),
    (("^",), re.compile(r"\s\^[A-Za-z0-9-]+\s*$"), ""),
    (("#",), re.compile(r"(?:(?<=\s)|^)#([\w/-]*[^\W\d][\w/-]*)", re.UNICODE), r"\1"),
    (("[",), re.compile(r"^\[[ xX]\]\s+"), ""),
)
CODE = re.compile(r"(`+)(.+?)\1")
_PARKED = re.compile("\x01(\\d+)\x02")
_SPACE_BEFORE_PUNCT = re.compile(r"\s+([.,;:!?])(?=\s|$)")


def _wiki(m: re.Match[str]) -> str:
    target, heading, alias = m.group(1), m.group(2), m.group(3)
    if alias:
        return alias.strip()
    name = target.strip().rsplit("/", 1)[-1]
    for ext in (".md", ".markdown"):
        if name.lower().endswith(ext):
            name = name[: -len(ext)]
    return name or (heading or "").strip().lstrip("^")


def plain(text: str) -> str:
    """``prose.plain`` as it was (the code the scanners must agree with)."""
    if "\x01" in text or "\x02" in text:
        text = text.replace("\x01", "").replace("\x02", "")
    spans: list[str] = []

    def park(m: re.Match[str]) -> str:
        spans.append(m.group(2).strip())
        return f"\x01{len(spans) - 1}\x02"

    out = CODE.sub(park, text) if "`" in text else text
    for needles, pattern, repl in RULES:
        for needle in needles:
            if needle in out:
                out = pattern.sub(_wiki if repl == "\x00wiki" else repl, out)
                break
    if "\x01" in out:
        out = _PARKED.sub(lambda m: spans[int(m.group(1))], out)
    out = _SPACE_BEFORE_PUNCT.sub(r"\1", " ".join(out.split()))
    return out.strip()


# ``notes/inline.py`` as it was: the Markdown link pattern (its spaces gave back one at a time:
# ~n² on "[a](" + spaces) and the code-span masking (a scan on from every unclosed run).
MD_LINK = re.compile(
    r"(!?)\[((?:[^\[\]\n]|\[[^\[\]\n]*\])*)\]"
    r"\(\s*(<[^<>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)"
    r"(?:\s+(?:\"[^\"\n]*\"|'[^'\n]*'))?\s*\)"
)
_BACKTICKS = re.compile(r"`+")


def mask_code_spans(text: str) -> str:
    out = list(text)
    pos = 0
    while True:
        m = _BACKTICKS.search(text, pos)
        if m is None:
            break
        if m.start() > 0 and _escaped(text, m.start()):
            pos = m.start() + 1
            continue
        close = _find_closing_run(text, m.end(), len(m.group(0)))
        if close is None:
            pos = m.end()
            continue
        for i in range(m.start(), close):
            if out[i] != "\n":
                out[i] = " "
        pos = close
    return "".join(out)


def _escaped(text: str, i: int) -> bool:
    slashes = 0
    while i - slashes - 1 >= 0 and text[i - slashes - 1] == "\\":
        slashes += 1
    return slashes % 2 == 1


def _find_closing_run(text: str, start: int, length: int) -> int | None:
    for m in _BACKTICKS.finditer(text, start):
        if len(m.group(0)) == length:
            return m.end()
    return None
