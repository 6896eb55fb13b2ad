"""The learner's shelf of sources for the window: each recorded source with how it is indexed
and how much of it is in the graph, its content for the reader, the media file beside a
transcript, and removing one (its passages leave the index; the graph is not touched).

A file is read ONLY through a recorded ``Source`` (root + root-relative path) and the readers'
one path rule: its real path inside the real root, never in the data folder — no ``..``, no
absolute path, no symlink out. A note is read by the notes import's own reader, so a note the
import skipped (not UTF-8, over its size limit) is refused here with the import's reason.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from studyhall.core.contracts.material import MaterialFile, SkippedFile
from studyhall.core.contracts.sources import Source
from studyhall.core.errors import InvalidInput, NotFound, StudyhallError
from studyhall.core.library.learner.rollup import is_topic
from studyhall.core.library.sources.key_moments import Cue
from studyhall.core.library.sources.note_reading import headings, link_wikilinks, strip_frontmatter
from studyhall.core.ports.models import Embedder
from studyhall.core.ports.search import SearchIndex
from studyhall.core.ports.sources import MaterialReader, VaultReader
from studyhall.core.ports.storage import SourceStore
from studyhall.server.runtime.library.graph_reader import GraphReader
from studyhall.server.runtime.library.image_types import image_type
from studyhall.server.runtime.library.moment_cache import MomentCache

MEDIA_TYPES = {
    ".mp4": "video/mp4", ".m4v": "video/mp4", ".webm": "video/webm", ".mov": "video/quicktime",
    ".ogv": "video/ogg", ".mkv": "video/x-matroska", ".mp3": "audio/mpeg", ".m4a": "audio/mp4", ".wav": "audio/wav",
    ".ogg": "audio/ogg", ".oga": "audio/ogg", ".opus": "audio/ogg", ".flac": "audio/flac",
}


class SourceLibrary:
    def __init__(self, *, sources: SourceStore, index: SearchIndex, graph: GraphReader,
                 reader: MaterialReader, notes: VaultReader, embedder: Embedder) -> None:
        self._sources = sources
        self._index = index
        self._graph = graph
        self._reader = reader
        self._notes = notes
        self._embedder = embedder
        self.moments = MomentCache()

    def get(self, source_id: str) -> Source:
        source = self._sources.get(source_id)
        if source is None:
            raise NotFound(f"There is no source {source_id!r}. Open Sources to see what is imported.")
        return source

    # --- the shelf -------------------------------------------------------------------------

    def summaries(self) -> list[dict[str, Any]]:
        """Every source as recorded, plus ``title``, ``chunks``, ``embedded`` (the model or
        ``None``), ``stale`` (embedded by another model than the one set now), ``graph_nodes`` (of
        them ``graph_topics``, the map's topics) and ``has_media``."""
        in_graph: Counter[str] = Counter()
        topics: Counter[str] = Counter()  # of those, the map's topics (the rest are ideas)
        for node in self._graph.snapshot().nodes:
            in_graph.update(set(node.sources))
            if is_topic(node):
                topics.update(set(node.sources))
        current = self._current_model()
        out = []
        for s in self._sources.list():
            model = self._index.source_model(s.id)
            out.append({
                **s.model_dump(mode="json"),
                "title": _title(s.path),
                "chunks": self._passages(s.id, model),
                "embedded": model or None,
                "stale": bool(model) and bool(current) and model != current,
                "graph_nodes": in_graph.get(s.id, 0),
                "graph_topics": topics.get(s.id, 0),
                "has_media": self.media_path(s) is not None,
            })
        return out

    def shelf_totals(self) -> dict[str, int]:
        """The shelf's line, each thing counted once, over the sources not removed:
        ``sources``, ``passages`` indexed, ``graph_nodes`` (nodes whose evidence cites at least
        one of them) and ``graph_topics`` (of those, the map's topics). Adding up each source's
        counts would count an idea cited by a note and a lecture twice."""
        live = {s.id for s in self._sources.list() if s.status != "deleted"}
        cited = [node for node in self._graph.snapshot().nodes if live.intersection(node.sources)]
        return {"sources": len(live),
                "passages": sum(self._passages(sid, self._index.source_model(sid)) for sid in live),
                "graph_nodes": len(cited), "graph_topics": sum(1 for n in cited if is_topic(n))}

    def _passages(self, source_id: str, model: str | None) -> int:
        """The passages search holds for a source (none when the index does not hold it)."""
        return len(self._index.chunks(source_id)) if model is not None else 0

    def _current_model(self) -> str:
        try:
            return self._embedder.model_id
        except StudyhallError:  # unreadable settings: nothing is called stale for now
            return ""

    # --- the reader ------------------------------------------------------------------------

    def content(self, source_id: str) -> dict[str, Any]:
        """What the reader shows: a note's Markdown (wikilinks resolved to source ids) with its
        headings; a transcript's cues; a PDF's pages; a text file's sections."""
        source = self.get(source_id)
        if source.status == "deleted":
            raise NotFound(f"{source.path} was removed from Studyhall. Import it again to read it.")
        if self._reader.locate(source.root, source.path) is None:
            raise NotFound(f"{source.path} is no longer in {source.root}. Re-import the folder "
                           "or remove the source.")
        base = {"id": source.id, "kind": source.kind, "title": _title(source.path),
                "path": source.path, "root": source.root, "status": source.status,
                "media": self._media_kind(source)}
        if source.kind == "note":
            return {**base, **self._note(source)}
        read = self._reader.read(source.root, source.path)
        if not isinstance(read, MaterialFile):
            raise InvalidInput(f"{source.path} cannot be read: {read.reason}")
        segs = read.segments
        if source.kind == "transcript":
            cues = [Cue(s.start or 0.0, s.end or s.start or 0.0, s.text) for s in segs]
            return {**base, "cues": [{"start": s.start, "end": s.end, "text": s.text} for s in segs],
                    "moments": self.moments.moments(cues)}
        if source.kind == "pdf":
            return {**base, "pages": [{"page": s.page, "text": s.text} for s in segs]}
        return {**base, "sections": [{"heading": s.heading, "text": s.text} for s in segs]}

    def _note(self, source: Source) -> dict[str, Any]:
        note = self._notes.read_note(source.root, source.path)
        if isinstance(note, SkippedFile):
            raise InvalidInput(f"{source.path} cannot be read: {note.reason}")
        text = strip_frontmatter(note.text)
        paths = {s.path: s.id for s in self._sources.list()
                 if s.root == source.root and s.status != "deleted"}
        files = self._notes.scan(source.root).files  # the vault's images, for its embeds
        return {"markdown": link_wikilinks(text, paths, source.id, note_path=source.path,
                                           files=files),
                "headings": [{"level": x.level, "text": x.text, "slug": x.slug}
                             for x in headings(text)]}

    # --- the player ------------------------------------------------------------------------

    def media_path(self, source: Source) -> Path | None:
        """The local video or audio file recorded beside a transcript, when it is one."""
        if source.kind != "transcript" or not source.media or "://" in source.media:
            return None
        located = self._reader.locate(source.root, source.media)  # recorded root-relative
        path = Path(located) if located is not None else None
        return path if path is not None and path.suffix.lower() in MEDIA_TYPES else None

    def _media_kind(self, source: Source) -> str | None:
        """``"video"`` or ``"audio"`` when a playable file is beside the transcript."""
        path = self.media_path(source)
        return MEDIA_TYPES[path.suffix.lower()].split("/")[0] if path is not None else None

    def media(self, source_id: str) -> tuple[Path, str]:
        source = self.get(source_id)
        path = self.media_path(source)
        if path is None or source.status == "deleted":
            raise NotFound(f"{source.path} has no local video or audio file beside it.")
        return path, MEDIA_TYPES[path.suffix.lower()]

    def image(self, source_id: str, path: str) -> tuple[Path, str]:
        """A picture a note shows: ``path`` (root-relative) inside the note's own vault, by the
        one path rule, an image by its name and by its first bytes."""
        source = self.get(source_id)
        located = self._reader.locate(source.root, path) if source.status != "deleted" else None
        media_type = image_type(located) if located is not None else None
        if located is None or media_type is None:
            raise NotFound(f"{path!r} is not a picture in the folder {source.path} came from.")
        return Path(located), media_type

    # --- removing --------------------------------------------------------------------------

    def remove(self, source_id: str) -> dict[str, Any]:
        """Take the source's passages out of the index and mark it deleted. The graph keeps
        every node and the learner's history: what was learned from it is not lost."""
        source = self.get(source_id)
        chunks = len(self._index.chunks(source.id))
        self._index.remove(source.id)
        self._sources.save(source.model_copy(update={"status": "deleted",
                                                     "reason": "removed from Studyhall"}))
        return {"id": source.id, "status": "deleted", "chunks_removed": chunks}


def _title(path: str) -> str:
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    stem = name.rsplit(".", 1)[0] if "." in name else name
    return stem or path
