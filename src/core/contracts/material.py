"""Files read from the learner's disk: vault scans, notes, course material."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal


@dataclass(frozen=True)
class SkippedFile:
    """A file the import could not use, and why (said so a user can act on it)."""

    path: str  # vault-relative, "/"-separated
    reason: str


@dataclass(frozen=True)
class VaultScan:
    """What a walk of a vault found. ``files`` is every usable file of the whole vault (notes
    and attachments, for link resolution); ``notes`` the Markdown notes under the path asked
    for, which are the ones to import; ``skipped`` what under that path could not be used."""

    root: str  # absolute path of the vault root (the folder holding .obsidian/, else the path)
    target: str  # vault-relative path that was asked for ("" = the whole vault)
    files: tuple[str, ...]
    notes: tuple[str, ...]
    skipped: tuple[SkippedFile, ...] = ()


@dataclass(frozen=True)
class NoteFile:
    path: str
    text: str  # decoded UTF-8, byte-order mark removed
    meta: Mapping[str, Any]  # the frontmatter, loaded by a safe YAML reader ({} when none)
    meta_error: str | None  # why the frontmatter could not be read (the note still imports)
    size: int
    content_hash: str  # sha256 of the bytes


# Audio and video read as lectures: transcribed when no same-stem .vtt/.srt is beside them.
MEDIA_SUFFIXES = (".mp3", ".m4a", ".wav", ".mp4", ".webm", ".mkv")
# The reason a media file's read gives while no cached transcript exists for its bytes.
NEEDS_TRANSCRIPTION = "needs transcription"


def is_media(path: str) -> bool:
    return path.lower().endswith(MEDIA_SUFFIXES)


def _is_language_tag(part: str) -> bool:
    """``eng``, ``en``, ``en-US``, ``pt_BR``: what players and subtitle tools put before the
    extension (``Lecture 3.eng.vtt``). Checked by hand: a short fixed shape, linear in the name."""
    base, _, region = part.replace("_", "-").partition("-")
    if not (2 <= len(base) <= 3 and base.isascii() and base.isalpha()):
        return False
    return not region or (2 <= len(region) <= 4 and region.isascii() and region.isalnum())


def pairing_stem(name: str) -> str:
    """The name a recording and its captions share: the file name without its extension and
    without a language tag before it — ``X.eng.vtt``, ``X.vtt``, ``X.mp4`` and ``X.eng.mp4`` all
    pair as ``X``. Case is kept (a folder may hold ``a.mp4`` and ``A.mp4``)."""
    stem = name.rsplit(".", 1)[0] if "." in name else name
    head, dot, last = stem.rpartition(".")
    return head if dot and head and _is_language_tag(last) else stem


MaterialKind = Literal["note", "transcript", "pdf", "text"]


@dataclass(frozen=True)
class Segment:
    """One structural unit a reader found: a transcript cue, a PDF page, a text paragraph."""

    text: str
    start: float | None = None  # seconds into the lecture (transcript cue)
    end: float | None = None
    page: int | None = None  # 1-based PDF page
    heading: str | None = None  # the heading this text sits under (notes / Markdown text)


@dataclass(frozen=True)
class MaterialFile:
    """A course file read into segments; ``path`` is root-relative and "/"-separated."""

    path: str
    kind: MaterialKind
    title: str
    segments: tuple[Segment, ...]
    size: int
    content_hash: str  # sha256 of the file's bytes
    media: str | None = None  # video file (root-relative) or URL that goes with a transcript


@dataclass(frozen=True)
class MaterialScan:
    root: str  # absolute folder the paths are relative to (the vault root, as for notes)
    files: tuple[str, ...]  # course files to read (root-relative)
    skipped: tuple[SkippedFile, ...] = ()
    single_file: bool = False  # a file was asked for, not a folder (nothing else is "gone")
    target: str = ""  # root-relative path that was asked for ("" = the whole root)
