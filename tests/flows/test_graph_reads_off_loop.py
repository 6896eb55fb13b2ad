"""Reading the graph can take seconds (the first read of a large graph folds every ledger), so
no route or background task reads it on the event-loop thread: graph search, dragged positions,
graph context, the notes import and its upkeep, and chat extraction all fold in worker threads."""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path

import pytest
from studyhall.server.app import build_services
from studyhall.server.config import load_config
from studyhall.server.runtime.library.graph_reader import GraphReader

from tests.support.embedder import HashEmbedder
from tests.support.notes import make_vault
from tests.support.runs import finished
from tests.support.session_api import PORT, scripted_app, write_script
from tests.support.session_start import context_steer, first_turn, opened
from tests.support.trees_lesson import EXTRACTION, hold_session, script


@pytest.fixture
def fold_threads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The name of the thread of every graph read."""
    threads: list[str] = []
    real = GraphReader.snapshot

    def spy(self: GraphReader):  # type: ignore[no-untyped-def]
        threads.append(threading.current_thread().name)
        return real(self)

    monkeypatch.setattr(GraphReader, "snapshot", spy)
    return threads


def on_loop(threads: list[str]) -> bool:
    return threading.main_thread().name in threads


async def test_import_search_positions_and_context_read_off_the_loop(
    tmp_path: Path, fold_threads: list[str]
) -> None:
    vault = make_vault(tmp_path / "Vault", notes=6)
    services = replace(build_services(load_config(port=PORT)), embedder=HashEmbedder())
    async with scripted_app(None, services) as (api, runtime):
        # notes, links, upkeep (embed, cluster, place)
        await runtime.library.import_here(str(vault))
        assert fold_threads and not on_loop(fold_threads)

        fold_threads.clear()
        hits = await api.http.get("/api/graph/search", params={"q": "first detail"})
        assert hits.status_code == 200 and hits.json()["results"]
        node = hits.json()["results"][0]["id"]
        moved = await api.http.put("/api/graph/positions",
                                   json={"positions": {node: {"x": 1, "y": 2}}})
        assert moved.status_code == 200 and moved.json()["saved"] == 1
        chat_id = await opened(runtime, "the details of cells")  # its context, built meanwhile
        assert len(fold_threads) >= 3 and not on_loop(fold_threads)
        await first_turn(runtime, chat_id)
        assert context_steer(runtime, chat_id) is not None


async def test_chat_extraction_and_its_upkeep_read_off_the_loop(
    tmp_path: Path, fold_threads: list[str]
) -> None:
    keep = {"verdicts": [{"key": "p1", "keep": True, "reason": "backed"},
                         {"key": "p2", "keep": True, "reason": "true"}]}
    path = write_script(tmp_path / "script.json", script([{"json": EXTRACTION}], [{"json": keep}]))
    services = replace(build_services(load_config(port=PORT, script_path=path)),
                       embedder=HashEmbedder())
    async with scripted_app(path, services=services) as (api, runtime):
        chat_id = await hold_session(api, runtime)
        fold_threads.clear()
        run_id = (await api.http.post(f"/api/chats/{chat_id}/extract")).json()["run_id"]
        run = await finished(runtime.library.extraction_run(run_id))
        await runtime.supervisor.idle()
        # p1 and the session's topic it hangs under (issue 28 item 5); p2 is dropped.
        assert run.status == "done" and run.propositions == 2
        # The run's first read (the cold one) is in a thread; the merge's own reads stay on
        # the loop (a merge never awaits) and fold only the tail the warm read left. The
        # upkeep the merge scheduled reads in a thread.
        main = threading.main_thread().name
        assert len(fold_threads) >= 3 and fold_threads[0] != main and fold_threads[-1] != main
