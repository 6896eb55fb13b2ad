"""When each exported Anki note last changed, kept beside the data so a re-export writes only what
changed: a note whose fields and tags are the ones exported last time keeps that export's
modification time, so Anki's importer finds it not newer and leaves it alone (before, every
re-export stamped every note "now" and Anki logged all of them as updated).

The record (``exports/anki-note-times.json``: GUID → [digest of fields and tags, mtime]) is
derived data: lost or unreadable, the next export stamps every note once and starts it again.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from pathlib import Path

from studyhall.adapters.store.atomic import atomic_write_bytes
from studyhall.core.library.export.anki_notes import AnkiNote

log = logging.getLogger("studyhall.export")
RECORD_MAX = 64 << 20  # bytes read of the record (a 100k-note graph's is ~10 MB)


def note_digest(note: AnkiNote) -> str:
    """What Anki compares on import: the note's fields and its tags."""
    text = "\x1f".join((note.front, note.back, note.source, " ".join(note.tags)))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


class NoteTimes:
    def __init__(self, path: Path | None) -> None:
        self._path = path  # None: nothing kept (every note stamped at each export)

    def stamps(self, notes: Sequence[tuple[str, AnkiNote]], now: int) -> dict[str, int]:
        """GUID → the modification time to write: the kept one for an unchanged note, ``now``
        for a new or changed one. The record is updated for the next export."""
        kept = self._load()
        out: dict[str, int] = {}
        for guid, note in notes:
            digest = note_digest(note)
            old = kept.get(guid)
            out[guid] = old[1] if old is not None and old[0] == digest else now
            kept[guid] = (digest, out[guid])
        self._save(kept)
        return out

    def _load(self) -> dict[str, tuple[str, int]]:
        if self._path is None:
            return {}
        try:
            with open(self._path, "rb") as f:
                raw = json.loads(f.read(RECORD_MAX))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as e:
            log.warning("the Anki export's note times are unreadable (%s): every note is "
                        "stamped now", e)
            return {}
        if not isinstance(raw, dict):
            return {}
        return {str(k): (v[0], v[1]) for k, v in raw.items() if isinstance(v, list) and len(v)
                == 2 and isinstance(v[0], str) and isinstance(v[1], int)}

    def _save(self, kept: dict[str, tuple[str, int]]) -> None:
        if self._path is None:
            return
        try:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_bytes(self._path, json.dumps(
                {k: list(v) for k, v in kept.items()}, separators=(",", ":")).encode())
        except OSError as e:  # derived data: the next export stamps these notes again
            log.warning("could not keep the Anki export's note times (%s)", e)
