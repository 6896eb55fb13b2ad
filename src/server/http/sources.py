"""The Sources routes: the shelf, the reader's content, the player's media, remove, re-import.

``GET /api/sources`` lists every recorded source (status, chunks indexed, embedded or stale,
graph nodes citing it); ``GET /api/shelf`` the shelf's totals (each graph node once);
``GET /api/sources/{id}`` is its content for the reader;
``GET /api/sources/{id}/media`` streams the local video/audio beside a transcript with HTTP
Range (206 / 416); ``GET /api/sources/{id}/image?path=`` a picture a note shows, from inside
its own folder only; ``DELETE /api/sources/{id}`` takes its passages out of the index (the graph
and the learner's history stay); ``POST /api/sources/{id}/reimport`` imports its folder again.
"""

from __future__ import annotations

import os
import re
from collections.abc import AsyncIterator
from pathlib import Path

import anyio
from pydantic import Field
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route
from studyhall.core.errors import InvalidInput, NotFound
from studyhall.server.http.body_model import BodyModel
from studyhall.server.http.numbers import digits_value
from studyhall.server.http.openapi import Query, describe
from studyhall.server.http.query import query
from studyhall.server.runtime.library import Library


class ShelfTotals(BodyModel):
    sources: int = Field(ge=0)
    passages: int = Field(ge=0)
    graph_nodes: int = Field(ge=0)
    graph_topics: int = Field(ge=0)


_RANGE = re.compile(r"^bytes=([0-9]*)-([0-9]*)$")
PIECE = 256 * 1024


def byte_range(header: str | None, size: int) -> tuple[int, int] | None | bool:
    """``(first, last)`` inclusive for one satisfiable range; ``None`` for no (or an ignored
    multi-part) Range header; ``False`` when it cannot be satisfied (416)."""
    if not header:
        return None
    m = _RANGE.match(header.strip())
    if m is None:
        return None  # a form we do not serve (several ranges): the whole file, as RFC 9110 allows
    first, last = m.group(1), m.group(2)
    if not first and not last:
        return False
    # A position past the file's end is as good as any other past it (RFC 9110: a last byte
    # past the end means the end), so a 5,000-digit one is read as "past the end", never int()ed.
    past = size + 1
    if not first:  # the last N bytes
        n = _position(last, past)
        return (max(size - n, 0), size - 1) if n and size else False
    start = _position(first, past)
    end = min(_position(last, past), size - 1) if last else size - 1
    if start >= size or end < start:
        return False
    return start, end


def _no_follow(path: str, flags: int) -> int:
    """The path was located by the readers' path rule (its real path): a name swapped for a
    symlink since then is refused, not followed."""
    return os.open(path, flags | getattr(os, "O_NOFOLLOW", 0))


def _position(digits: str, past: int) -> int:
    value = digits_value(digits, past)
    return past if value is None else value


async def _read(path: Path, start: int, end: int) -> AsyncIterator[bytes]:
    async with await anyio.open_file(path, "rb", opener=_no_follow) as f:
        await f.seek(start)
        left = end - start + 1
        while left > 0:
            data = await f.read(min(PIECE, left))
            if not data:
                return
            left -= len(data)
            yield data


def routes(library: Library) -> list[BaseRoute]:

    @describe(summary="Every imported source: kind, status, how it is indexed, how much of it "
                      "is in the graph")
    async def list_sources(request: Request) -> Response:
        """Every imported source: id, path, root, kind, status (imported, unchanged, skipped
        with ``reason``, deleted), resolved and broken links, a note's ``sections`` (its
        headings' anchors at its last import; null when not known), ``title``, ``chunks`` indexed,
        ``embedded`` (the embedding model, or null), ``stale`` (embedded by another model than
        the one set now), ``graph_nodes`` (nodes whose evidence cites it), ``has_media``."""
        return JSONResponse(await anyio.to_thread.run_sync(library.source_summaries))

    @describe(summary="The shelf's totals, each thing counted once", response=ShelfTotals)
    async def shelf_totals(request: Request) -> Response:
        """Over the sources not removed: ``sources``, ``passages`` indexed, ``graph_nodes``
        (nodes whose evidence cites at least one of them) and ``graph_topics`` (of those, the
        map's topics). Unlike the sum of each source's ``graph_nodes``, a node citing two
        sources counts once."""
        return JSONResponse(await anyio.to_thread.run_sync(library.shelf_totals))

    @describe(summary="One source's content for the reader",
              responses={400: "The file cannot be read", 404: "No such source, or its file is gone"})
    async def get_source(request: Request) -> Response:
        """A note: ``markdown`` (wikilinks became ``#/sources/{id}?at=slug`` links) and
        ``headings`` (with the slugs citations use); a transcript: ``cues`` (start, end,
        text); a PDF: ``pages`` (page, text); a text file: ``sections``."""
        sid = request.path_params["source_id"]
        return JSONResponse(await anyio.to_thread.run_sync(library.source_content, sid))

    @describe(summary="The local video or audio beside a transcript (HTTP Range)",
              media="application/octet-stream",
              responses={206: "Part of the file (Range)", 404: "No media beside this source",
                         416: "The range is outside the file"})
    async def get_media(request: Request) -> Response:
        """Served from disk only: the media file recorded beside a recorded transcript,
        inside its imported folder. Never uploaded anywhere."""
        path, media_type = library.source_media(request.path_params["source_id"])
        size = os.path.getsize(path)
        wanted = byte_range(request.headers.get("range"), size)
        head = {"accept-ranges": "bytes", "cache-control": "no-store"}
        if wanted is False:
            return Response(status_code=416, headers={**head, "content-range": f"bytes */{size}"})
        start, end = wanted if isinstance(wanted, tuple) else (0, size - 1)
        head["content-length"] = str(max(end - start + 1, 0))
        if isinstance(wanted, tuple):
            head["content-range"] = f"bytes {start}-{end}/{size}"
        return StreamingResponse(_read(path, start, end), status_code=206 if wanted else 200,
                                 media_type=media_type, headers=head)

    @describe(summary="A picture a note shows, from inside the note's own folder",
              media="application/octet-stream",
              query=[Query("path", {"type": "string", "minLength": 1, "maxLength": 4096}, required=True,
                           description="The picture's path inside the folder the note came from")],
              responses={400: "No path given", 404: "Not a picture inside that folder"})
    async def get_image(request: Request) -> Response:
        """Only a regular file inside the note's imported folder (no ``..``, no absolute path,
        no symlink out, nothing in the data folder), a PNG, JPEG, GIF, WebP, AVIF or BMP by its
        name and its first bytes. Never an SVG or a page: it could carry a script."""
        path = query(request, "path").get("path")
        if not path:
            raise InvalidInput('Give the picture\'s "path" inside the note\'s folder.')
        found, media_type = await anyio.to_thread.run_sync(
            library.source_image, request.path_params["source_id"], path)
        head = {"content-length": str(os.path.getsize(found)), "cache-control": "no-store",
                "content-security-policy": "default-src 'none'; sandbox"}
        return StreamingResponse(_read(found, 0, os.path.getsize(found) - 1), media_type=media_type,
                                 headers=head)

    @describe(summary="Remove a source: its passages leave the index; the graph stays",
              responses={404: "No such source"})
    async def delete_source(request: Request) -> Response:
        """Marks the source deleted and takes its chunks out of the search index. Every node,
        its evidence and the learner's history stay: nothing learned is lost."""
        sid = request.path_params["source_id"]
        return JSONResponse(await anyio.to_thread.run_sync(library.remove_source, sid))

    @describe(summary="Import a source's folder again", status=202,
              responses={404: "No such source, or its folder is gone"})
    async def reimport_source(request: Request) -> Response:
        """Runs the import on the folder the source came from (unchanged files cost nothing);
        progress as for ``POST /api/graph/import``."""
        root = library.source_root(request.path_params["source_id"])
        if not await anyio.to_thread.run_sync(os.path.isdir, root):
            raise NotFound(f"{root} is gone. Import the material from where it is now.")
        run = library.reimport(root)
        return JSONResponse({"run_id": run.id, "status": run.status}, status_code=202)

    return [
        Route("/api/sources", list_sources, methods=["GET"], name="list_sources"),
        Route("/api/shelf", shelf_totals, methods=["GET"], name="shelf_totals"),
        Route("/api/sources/{source_id}", get_source, methods=["GET"], name="get_source"),
        Route("/api/sources/{source_id}", delete_source, methods=["DELETE"], name="delete_source"),
        Route("/api/sources/{source_id}/media", get_media, methods=["GET"], name="source_media"),
        Route("/api/sources/{source_id}/image", get_image, methods=["GET"], name="source_image"),
        Route("/api/sources/{source_id}/reimport", reimport_source, methods=["POST"],
              name="reimport_source"),
    ]
