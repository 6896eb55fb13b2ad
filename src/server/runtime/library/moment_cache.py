"""A transcript's key moments, computed once per content: cached by a hash of its cues, so a
re-opened lecture costs nothing and an edited one is cut again."""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from typing import Any

from studyhall.core.library.sources.key_moments import Cue, key_moments

KEEP = 256  # transcripts kept; a moment list is a few hundred bytes


class MomentCache:
    def __init__(self) -> None:
        self._kept: OrderedDict[str, list[dict[str, Any]]] = OrderedDict()
        self._lock = threading.Lock()
        self.computed = 0  # how many times moments were actually computed (for tests)

    def moments(self, cues: list[Cue]) -> list[dict[str, Any]]:
        digest = hashlib.sha256()
        for c in cues:
            digest.update(f"{c.start}\x00{c.end}\x00{c.text}\x01".encode())
        key = digest.hexdigest()
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
                return self._kept[key]
        found = [{"start": m.start, "end": m.end, "title": m.title, "terms": list(m.terms)}
                 for m in key_moments(cues)]
        with self._lock:
            self.computed += 1
            self._kept[key] = found
            while len(self._kept) > KEEP:
                self._kept.popitem(last=False)
        return found
