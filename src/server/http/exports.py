"""Export routes: ``GET /api/export/anki?scope=SCOPE`` (``core.contracts.scope_text``'s grammar:
graph, source:ID, session:ID, topic:ID, cluster:ID or nodes:ID,...) answers with the scope's
Anki deck (``.apkg``) as a download — the same deck ``studyhall export anki`` writes.
"""

from __future__ import annotations

import asyncio
import re

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route
from studyhall.core.contracts.scope_text import SCOPE_HELP
from studyhall.server.http.openapi import Query, describe
from studyhall.server.http.query import query
from studyhall.server.runtime.learner import Learner

APKG = "application/apkg"
_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


def download_name(deck: str) -> str:
    """An ASCII file name for the deck (the header cannot carry more)."""
    stem = _UNSAFE_NAME.sub("-", deck.replace("::", "-")).strip("-.") or "Studyhall"
    return f"{stem[:80]}.apkg"


def routes(learner: Learner) -> list[BaseRoute]:
    @describe(summary="Export an Anki deck (.apkg)", media=APKG,
              responses={400: "Unknown scope",
                         404: "No such source, session, topic, cluster or node"},
              query=[Query("scope", {"type": "string", "default": "graph"},
                           description=SCOPE_HELP)])
    async def get_anki(request: Request) -> Response:
        """The scope's nodes as Anki notes (front: a review prompt; back: the node's text and
        an evidence quote; source links; tags from clusters and sources). GUIDs come from the
        node ids, so importing a newer export into Anki updates the same notes."""
        scope = query(request, "scope").get("scope")
        body, deck = await asyncio.to_thread(learner.anki_deck, scope)
        return Response(body, media_type=APKG, headers={
            "Content-Disposition": f'attachment; filename="{download_name(deck)}"',
            "Cache-Control": "no-store"})

    return [Route("/api/export/anki", get_anki, methods=["GET"], name="export_anki")]
