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
