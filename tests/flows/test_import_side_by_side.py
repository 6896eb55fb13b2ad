"""An import builds the search index beside the graph: the index's encoder work runs while the
notes are merged, its progress shows only once the graph's side waits for it (one stage on the
screen at a time), clustering and layout come after it, and a failure or an abort on the
graph's side stops the index's side before the run reports."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from studyhall.adapters.fakes import FixedClock, SequentialIds
from studyhall.core.errors import StudyhallError
from studyhall.core.library.extraction.tally import MergeTally
from studyhall.core.library.imports.lectures import LectureFile
from studyhall.core.library.imports.report import ImportProgress, ImportReport
from studyhall.core.library.sources.material_import import MaterialReport
from studyhall.server.runtime.library.import_runs import ImportRunner
from studyhall.server.runtime.supervisor import Supervisor

from tests.support.runs import finished

WAIT = 5.0  # seconds; a runner that ran the two sides one after the other never gets there


class GraphSide:
    """The notes import: merges until the index's side has been seen embedding, then waits
    for it before arranging (as ``GraphUpkeep.refresh`` does with ``arrange_after``)."""

    def __init__(self, index_embedding: asyncio.Event, fail: bool = False) -> None:
        self.index_embedding = index_embedding
        self.fail = fail
        self.index_result: Any = None

    async def run(self, path: str, *, mode: str, embed: bool, progress: Any,
                  arrange_after: Any) -> ImportReport:
        progress(ImportProgress("extracting", 0, 2))
        await asyncio.wait_for(self.index_embedding.wait(), WAIT)  # merging beside its encoder
        if self.fail:
            raise StudyhallError("The graph could not be written: the disk is full.")
        progress(ImportProgress("embedding", 0, 2))
        self.index_result = await arrange_after()
        progress(ImportProgress("clustering", 0, 2))
        return ImportReport(root=path, target=path, notes=2)


class IndexSide:
    """The search index's side: tells its progress, then "embeds" until released."""

    def __init__(self, release: asyncio.Event | None = None) -> None:
        self.embedding = asyncio.Event()
        self.release = release or asyncio.Event()
        self.cancelled = False
        self.finished = False

    async def run(self, path: str, progress: Any, *, embed: bool) -> Any:
        progress(ImportProgress("indexing", 1, 2, "a.md"))
        self.embedding.set()
        try:
            await self.release.wait()
        except asyncio.CancelledError:
            self.cancelled = True
            raise
        progress(ImportProgress("indexing", 2, 2, "b.md"))
        self.finished = True
        return MaterialReport(imported=["a.md", "b.md"], chunks=4, root_name="vault")


class NoDecks:
    """The Anki side: these imports are folders, never a deck."""

    async def run(self, *args: object, **kwargs: object) -> None:
        raise AssertionError("a folder import reached the Anki importer")


NO_DECKS = NoDecks()


class NoLectures:
    """The lectures' topics: these folders hold notes only (``a.md``, ``b.md``)."""

    async def merge(self, lectures: list[LectureFile]) -> MergeTally:
        assert all(lecture.kind == "note" for lecture in lectures)
        return MergeTally()


def _runner(graph: GraphSide, index: IndexSide) -> ImportRunner:
    return ImportRunner(notes=graph, material=index, clock=FixedClock(),  # type: ignore[arg-type]
                        ids=SequentialIds(), supervisor=Supervisor(),
                        anki=NO_DECKS, lectures=NoLectures())  # type: ignore[arg-type]


async def test_the_index_is_built_while_the_notes_merge_and_shown_after() -> None:
    release = asyncio.Event()
    index = IndexSide(release)
    graph = GraphSide(index.embedding)
    seen: list[tuple[str, int]] = []

    def progress(p: ImportProgress) -> None:
        seen.append((p.stage, p.done))
        if p.stage == "embedding":
            release.set()  # the index's side finishes while the nodes embed

    report = await _runner(graph, index).run("/vault", embed=True, progress=progress)
    material = report.material

    # arrange_after waited for the index and merged no lecture topics (these are notes only).
    assert report.notes == 2 and graph.index_result is False
    assert material is not None and material.imported == 2 and material.chunks == 4
    # The index's progress was held while the graph's side reported its own; from the wait on,
    # its latest and every later one shows, and the graph's side arranges once the index is done.
    assert seen == [("extracting", 0), ("embedding", 0), ("indexing", 1), ("indexing", 2),
                    ("clustering", 0)]


async def test_a_failure_on_the_graph_side_stops_the_index_side_first() -> None:
    index = IndexSide()
    graph = GraphSide(index.embedding, fail=True)
    stages: list[str] = []

    with pytest.raises(StudyhallError, match="disk is full"):
        await _runner(graph, index).run("/vault", progress=lambda p: stages.append(p.stage))

    assert index.cancelled and not index.finished  # stopped, and done stopping, before the raise
    assert "indexing" not in stages


async def test_an_abort_stops_both_sides() -> None:
    index = IndexSide()
    graph = GraphSide(asyncio.Event())  # never seen: the graph's side waits until aborted
    runner = _runner(graph, index)
    run = runner.start("/vault")
    await asyncio.wait_for(index.embedding.wait(), WAIT)

    assert runner.abort(run.id)
    ended = await finished(runner.get(run.id))

    assert ended.status == "aborted" and index.cancelled and not index.finished


async def test_without_embeddings_the_sides_run_one_after_the_other() -> None:
    index = IndexSide()
    index.release.set()
    order: list[str] = []

    class Graph:
        async def run(self, path: str, **_: Any) -> ImportReport:
            order.append(f"graph, index started: {index.embedding.is_set()}")
            return ImportReport(root=path, target=path, notes=1)

    await _runner(Graph(), index).run("/vault", embed=False)  # type: ignore[arg-type]

    # All Python on both sides: side by side they would only take turns on one core.
    assert order == ["graph, index started: False"] and index.finished

