"""Course material end to end (no model): import, re-import, broken files, deleted files, and
retrieval with coverage cases, "this" questions and navigation."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from studyhall.adapters.fakes import FixedClock, InMemoryGraphStore, InMemorySourceStore
from studyhall.adapters.search.index import FileSearchIndex
from studyhall.adapters.sources.material import FileMaterialReader
from studyhall.core.library.retrieval.chunking import SourcePlace
from studyhall.core.library.retrieval.hybrid import Retriever
from studyhall.core.library.retrieval.match_cases import Calibration
from studyhall.core.library.sources.material_import import MaterialImporter
from studyhall.core.library.upkeep.vector_cache import VectorCache

from tests.support.course import OverlapScorer, pdf_bytes, vtt
from tests.support.embedder import HashEmbedder

GC = [
    (0, 5, "Today we study garbage collection in language runtimes."),
    (6, 12, "Mark and sweep marks every object reachable from the roots."),
    (13, 20, "Then the sweep phase frees every unmarked object on the heap."),
    (100, 106, "Reference counting frees an object when its count drops to zero."),
    (107, 113, "Reference counting cannot reclaim cycles of objects."),
    (200, 206, "The generational hypothesis says most objects die young."),
]


def _course(root: Path) -> Path:
    (root / "lectures").mkdir(parents=True)
    (root / "lectures" / "gc.vtt").write_text(vtt(GC))
    (root / "lectures" / "gc.mp4").write_bytes(b"\x00")
    (root / "handout.pdf").write_bytes(pdf_bytes(["Slow start doubles the congestion window.", "Loss halves it."]))
    (root / "glossary.txt").write_text("Closure: a function with the variables of its scope.\n")
    (root / "broken.srt").write_text("this is not a subtitle file")
    return root


def _importer(tmp_path: Path, sources: InMemorySourceStore, clock: FixedClock) -> MaterialImporter:
    return MaterialImporter(FileMaterialReader(), FileSearchIndex(tmp_path / "index"), clock,
                            sources=sources, cache=VectorCache(HashEmbedder(), InMemoryGraphStore()))


async def test_import_is_idempotent_reports_broken_and_deleted_files(tmp_path: Path):
    root = _course(tmp_path / "course")
    sources, clock = InMemorySourceStore(), FixedClock()
    progress: list[tuple[int, int, str]] = []
    first = await _importer(tmp_path, sources, clock).run(str(root), lambda p: progress.append((p.done, p.total, p.path)))
    assert sorted(first.imported) == ["glossary.txt", "handout.pdf", "lectures/gc.vtt"]
    assert [s.path for s in first.skipped] == ["broken.srt"] and "not a valid SRT" in first.skipped[0].reason
    assert progress[-1][:2] == (4, 4)
    by_path = {s.path: s for s in sources.list()}
    assert by_path["lectures/gc.vtt"].kind == "transcript" and by_path["lectures/gc.vtt"].media == "lectures/gc.mp4"
    assert by_path["broken.srt"].status == "skipped"
    ids = {s.path: s.id for s in sources.list()}

    clock.advance(seconds=60)
    again = await _importer(tmp_path, sources, clock).run(str(root))  # a fresh process, same data
    assert again.imported == [] and sorted(again.unchanged) == ["glossary.txt", "handout.pdf", "lectures/gc.vtt"]
    assert {s.path: s.id for s in sources.list()} == ids  # deterministic ids

    (root / "glossary.txt").write_text("Closure: changed text.\n")
    (root / "handout.pdf").unlink()
    third = await _importer(tmp_path, sources, clock).run(str(root))
    assert third.imported == ["glossary.txt"] and third.removed == ["handout.pdf"]
    assert {s.path: s.status for s in sources.list()}["handout.pdf"] == "deleted"
    index = FileSearchIndex(tmp_path / "index")
    assert index.chunks(ids["handout.pdf"]) == []
    assert "changed text" in index.chunks(ids["glossary.txt"])[0].text


@pytest.fixture
async def retriever(tmp_path: Path) -> Retriever:
    root = _course(tmp_path / "course")
    index = FileSearchIndex(tmp_path / "index")
    await MaterialImporter(FileMaterialReader(), index, FixedClock(), embedder=HashEmbedder()).run(str(root))
    # Test calibration for the word-overlap scorer (the real one is calibrated on the eval set).
    cal = Calibration(match_late=0.8, match_coverage=0.6, related_late=0.5, match_dense=0.9,
                      related_dense=0.9, related_coverage=0.3)
    return Retriever(index, embedder=HashEmbedder(), scorer=OverlapScorer(), calibration=cal)


async def test_a_covered_question_cites_the_moment_that_answers_it(retriever: Retriever):
    r = await retriever.retrieve("Why can reference counting not reclaim cycles?")
    assert r.case == "MATCH"
    assert r.cited[0].chunk.link.startswith("lectures/gc.vtt#t=")
    assert r.cited[0].chunk.start is not None and r.cited[0].chunk.start <= 107 <= (r.cited[0].chunk.end or 0)
    assert len(r.suggest) <= 2 and r.navigate is None


async def test_an_uncovered_question_cites_nothing(retriever: Retriever):
    r = await retriever.retrieve("What is the capital of Peru?")
    assert r.case == "NO_MATCH" and r.cited == () and r.suggest == ()
    assert r.hits  # the ranking still exists (eval reads it), it is just not cited


async def test_a_this_question_at_a_moment_answers_from_the_screen(retriever: Retriever):
    gc = next(c for sid in retriever.index.source_ids() for c in retriever.index.chunks(sid)  # type: ignore[attr-defined]
              if c.path == "lectures/gc.vtt")
    r = await retriever.retrieve("What does this mean?", SourcePlace(gc.source_id, t=110))
    assert r.case == "IN_MOMENT" and r.moment is not None
    assert r.moment.start is not None and r.moment.start <= 110
    assert [h.chunk for h in r.cited] == [r.moment]
    assert len(r.suggest) <= 2 and all(s.link != r.moment.link for s in r.suggest)
    assert r.navigate is None  # never jumps unless asked


async def test_take_me_to_navigates_to_one_moment(retriever: Retriever):
    gc_id = next(sid for sid in retriever.index.source_ids() if sid.startswith("transcript_"))  # type: ignore[attr-defined]
    r = await retriever.retrieve("Take me to where reference counting cannot reclaim cycles", SourcePlace(gc_id, t=0))
    assert r.case == "IN_SOURCE"
    assert r.navigate is not None and r.navigate.path == "lectures/gc.vtt" and r.suggest == ()


async def test_a_failing_embedder_falls_back_to_words(retriever: Retriever):
    from studyhall.core.errors import ModelNotConfigured

    class Broken:
        model_id = "broken"

        async def embed(self, texts):  # type: ignore[no-untyped-def]
            raise ModelNotConfigured("no key for the embedding model", role=None)

    retriever = replace(retriever, embedder=Broken())  # type: ignore[arg-type]
    hits = await retriever.search("reference counting cycles")
    assert hits and "dense" not in hits[0].signals
    assert hits[0].chunk.path == "lectures/gc.vtt"


async def test_a_definition_question_cites_the_defining_passage_without_a_model(retriever: Retriever):
    # The glossary's "Closure: …" answers it even when the scores alone would not cite.
    strict = Calibration(match_late=1.1, match_coverage=1.1, related_late=1.1, match_dense=1.1,
                         related_dense=1.1, related_coverage=1.1)
    r = await replace(retriever, calibration=strict).retrieve("What is a closure?")
    assert r.case == "MATCH" and r.cited[0].chunk.path == "glossary.txt"
    r = await replace(retriever, calibration=strict).retrieve("What is the capital of Peru?")
    assert r.case == "NO_MATCH" and r.cited == ()
