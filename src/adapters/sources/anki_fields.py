"""An Anki note's fields (HTML) as the import keeps them: plain text with line breaks, images
and sounds as mentions ("[image: cat.jpg]"), clozes as gaps — in time linear in the field.

A field comes from a file anyone can hand the learner, so nothing here may backtrack: the
image, sound and cloze patterns are small scanners (``str.find`` and fixed openers), because a
regular expression for them (``\\{\\{c\\d+::(.*?)(?:::(.*?))?\\}\\}`` and the like) retries every
opener against the rest of the field — cubic on ``"{{c1::"`` × 1000, 44 s for 6 KB. Each scanner
stops at the first opener that cannot close: no later one can close either. The reader also
cuts every field to ``RAW_FIELD_MAX`` before it gets here.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence

from studyhall.core.contracts.anki_deck import AnkiNote

# A field's HTML read at most (characters): 16× the text a card side keeps, room for the
# markup of a field pasted from the web; a longer field is cut here (the reader says so).
RAW_FIELD_MAX = 64 * 1024
FIELD_MAX = 4000  # characters of text kept of one side of a card
MEDIA_MAX = 64  # media mentions kept per note (a real note names a few)

_BREAK = re.compile(r"<br\s*/?>|</(?:div|p|li|tr|h[1-6])\s*>", re.IGNORECASE)
_IMG_OPEN = re.compile(r"<img\b", re.IGNORECASE)
# Searched only inside one tag (between "<img" and its ">"): every try ends at the tag's end.
_SRC = re.compile(r"\bsrc\s*=\s*[\"']?([^\"'>\s]+)", re.IGNORECASE)
_SOUND_OPEN = "[sound:"
_CLOZE_OPEN = re.compile(r"\{\{c\d+::")
_SPACES = re.compile(r"[ \t\u00a0]+")

Span = tuple[int, int, str]  # (start, end, what it names) in the scanned text


def images(raw: str) -> list[Span]:
    """Every ``<img … src=NAME …>`` as (start, end, NAME): what the pattern
    ``<img\\b[^>]*?\\bsrc\\s*=\\s*["']?([^"'>\\s]+)[^>]*>`` finds, without its quadratic retries."""
    out: list[Span] = []
    at = 0
    while (opener := _IMG_OPEN.search(raw, at)) is not None:
        close = raw.find(">", opener.end())
        if close < 0:
            break  # no ">" after here: no later "<img" closes either
        src = _SRC.search(raw, opener.end(), close)
        if src is not None:
            out.append((opener.start(), close + 1, src.group(1)))
        at = close + 1  # an "<img" inside this tag shares its ">" and has no other src
    return out


def sounds(raw: str) -> list[Span]:
    """Every ``[sound:NAME]`` (NAME not empty, without "]")."""
    out: list[Span] = []
    at = 0
    while (start := raw.find(_SOUND_OPEN, at)) >= 0:
        name_at = start + len(_SOUND_OPEN)
        close = raw.find("]", name_at)
        if close < 0:
            break  # no "]" after here: no later "[sound:" closes either
        if close > name_at:
            out.append((start, close + 1, raw[name_at:close]))
            at = close + 1
        else:
            at = start + 1
    return out


def clozes(text: str) -> list[tuple[int, int, str, str | None]]:
    """Every ``{{cN::answer}}`` / ``{{cN::answer::hint}}`` as (start, end, answer, hint):
    Anki's cloze, as ``\\{\\{c\\d+::(.*?)(?:::(.*?))?\\}\\}`` (DOTALL) reads it — the answer runs
    to the first "::" before the first "}}", the hint from there to that "}}"."""
    out: list[tuple[int, int, str, str | None]] = []
    at = 0
    while (opener := _CLOZE_OPEN.search(text, at)) is not None:
        body = opener.end()
        close = text.find("}}", body)
        if close < 0:
            break  # no "}}" after here: no later cloze closes either
        hint = text.find("::", body, close)
        if hint >= 0:
            out.append((opener.start(), close + 2, text[body:hint], text[hint + 2:close]))
        else:
            out.append((opener.start(), close + 2, text[body:close], None))
        at = close + 2
    return out


def _replace(text: str, spans: Sequence[tuple[int, int, str]],
             make: Callable[[str], str]) -> str:
    out: list[str] = []
    at = 0
    for start, end, name in spans:
        out += [text[at:start], make(name)]
        at = end
    out.append(text[at:])
    return "".join(out)


def field_media(raw: str) -> list[str]:
    """The media files a field mentions: its images, then its sounds."""
    raw = raw[:RAW_FIELD_MAX]
    return [span[2] for span in images(raw)] + [span[2] for span in sounds(raw)]


def field_text(raw: str) -> tuple[str, list[str]]:
    """A field's HTML as plain text, and the media files it mentions."""
    import nh3  # here: only an Anki import needs it (html5ever: linear in its input)

    text = raw[:RAW_FIELD_MAX]
    found = images(text)
    heard = sounds(text) if _SOUND_OPEN in text else []
    media = [span[2] for span in found] + [span[2] for span in heard]
    if found:  # sounds are then found in the text with its images as mentions (as before)
        text = _replace(text, found, lambda name: f" [image: {name}] ")
        heard = sounds(text) if _SOUND_OPEN in text else []
    if heard:
        text = _replace(text, heard, lambda name: f" [sound: {name}] ")
    text = _BREAK.sub("\n", text)
    text = html.unescape(nh3.clean(text, tags=set()))
    lines = [_SPACES.sub(" ", line).strip() for line in text.splitlines()]
    return "\n".join(line for line in lines if line)[:FIELD_MAX], media


def _fill(text: str, gap: Callable[[str, str | None], str]) -> str:
    out: list[str] = []
    at = 0
    for start, end, answer, hint in clozes(text):
        out += [text[at:start], gap(answer, hint)]
        at = end
    out.append(text[at:])
    return "".join(out)


def note_of(guid: str, fields: Sequence[str], tags: str, deck: str) -> AnkiNote | None:
    """The note its fields make (``None``: its first two fields are empty). The first field
    is the front and the second the back — or a cloze, with its gaps on the front."""
    fields = list(fields) or [""]
    read = [field_text(raw) for raw in fields[:2]]
    texts = [text for text, _ in read]
    media: dict[str, None] = {}  # in order, each once
    for names in [*(found for _, found in read), *map(field_media, fields[2:])]:
        for name in names:
            if len(media) < MEDIA_MAX:
                media.setdefault(name)
    first = texts[0]
    rest = texts[1] if len(texts) > 1 else ""
    if clozes(fields[0][:RAW_FIELD_MAX]):
        front = _fill(first, lambda _answer, hint: f"[{hint or '…'}]")
        filled = _fill(first, lambda answer, _hint: answer)
        back = "\n".join(t for t in (filled, rest) if t)
        statement = filled
    else:
        front, back = first, rest
        statement = f"{first} — {rest}" if first and rest else first or rest
    if not front or not back:
        if not (front or back):
            return None
        front, back = front or back, back or front
    return AnkiNote(guid=guid, deck=deck, front=front, back=back,
                    statement=" ".join(statement.split())[:FIELD_MAX], tags=tuple(tags.split()),
                    media=tuple(media))
