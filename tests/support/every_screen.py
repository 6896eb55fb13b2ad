"""A learner with something on every screen, for the accessibility sweep: Today's history
(a note's topics on the map, a review due, a misconception, an open session whose lesson shows
a long code line and a waiting quiz), and the course shelf imported over HTTP (a note with
code, a lecture with its recording, a PDF) and an Obsidian note with callouts, pictures and
diagrams. A second, empty server shows the onboarding."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

from studyhall.core.contracts.chat import Message, TextPart
from studyhall.server.services import Services

from tests.support.browser_shelf import imported
from tests.support.course import OverlapScorer
from tests.support.embedder import HashEmbedder
from tests.support.live_server import LiveServer, start_server
from tests.support.picture_vault import make_picture_vault
from tests.support.shelf import make_shelf
from tests.support.today_history import CHAT, seed_learning, seed_notes

LONG_LINE = "frontier = " + " + ".join(f"neighbours(graph, queue[{i}])" for i in range(24))
LESSON = ("Breadth-first search visits the graph level by level:\n\n"
          f"```python\n{LONG_LINE}\n```\n\nEach level is one more edge from the start.")


def _seeded(services: Services) -> Services:
    now = datetime.now().astimezone()
    seed_notes(services, now)
    seed_learning(services, now)  # the open session, its quiz waiting
    lesson = Message(id="m_lesson", role="assistant", parts=(TextPart(text=LESSON),),
                     created_at=now - timedelta(hours=2), agent="teacher")
    services.chat_store.save_messages(CHAT, [lesson], now - timedelta(hours=2))
    # The test doubles Ask's tests use: no local model is loaded (or exported) for a screen.
    return replace(services, embedder=HashEmbedder(), passage_scorer=OverlapScorer())


def busy_server(folder: Path) -> tuple[LiveServer, dict[str, str]]:
    """The server and the ids the screens open: ``session``, ``note``, ``lecture``,
    ``obsidian``."""
    server = start_server(folder / "data", None, prepare=_seeded)
    shelf = imported(server, make_shelf(folder / "Course"))
    vault, _ = make_picture_vault(folder)
    pictures = imported(server, vault)
    return server, {"session": CHAT, "note": shelf["notes/Glycolysis.md"]["id"],
                    "lecture": shelf["lectures/Lecture 04 - Respiration.vtt"]["id"],
                    "obsidian": pictures["notes/Interface.md"]["id"]}


def empty_server(folder: Path) -> LiveServer:
    return start_server(folder / "fresh", None,
                        prepare=lambda s: replace(s, embedder=HashEmbedder()))
