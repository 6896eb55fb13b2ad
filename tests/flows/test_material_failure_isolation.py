"""One file's failure is that file's alone (issue 27, F5): a video ffmpeg cannot decode, a
corrupt PDF, a file that is not UTF-8 and a reader that raises something nobody expected are
each skipped with their reason in the report, and every good file beside them is indexed."""

from __future__ import annotations

from pathlib import Path

import pytest
from studyhall.adapters.fakes import FixedClock, InMemorySourceStore
from studyhall.adapters.llm.script import ChatScript
from studyhall.adapters.llm.transcriber import LitellmTranscriber
from studyhall.adapters.search.index import FileSearchIndex
from studyhall.adapters.sources import material as material_module
from studyhall.adapters.sources.material import FileMaterialReader
from studyhall.core.contracts.material import MaterialFile, SkippedFile
from studyhall.core.errors import InvalidInput
from studyhall.core.library.sources.material_import import MaterialImporter

from tests.support.embedder import HashEmbedder

VTT = "WEBVTT\n\n00:00.000 --> 00:02.000\nMark and sweep marks every reachable object.\n"
NOTE = "# Sweeping\n\nThe sweep phase frees every unmarked object.\n"
GOOD = {"lecture.vtt", "notes.md", "plain.txt"}


def course(root: Path) -> Path:
    root.mkdir()
    (root / "broken.mkv").write_bytes(b"\x1a\x45\xdf\xa3 not a matroska stream " * 64)
    (root / "lecture.vtt").write_text(VTT)
    (root / "notes.md").write_text(NOTE)
    (root / "plain.txt").write_text("Reference counting cannot reclaim cycles.\n")
    (root / "corrupt.pdf").write_bytes(b"%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R")
    (root / "latin1.txt").write_bytes("caf\xe9 cr\xe8me".encode("latin-1"))
    return root


def importer(tmp_path: Path, transcriber: object | None = None,
             sources: InMemorySourceStore | None = None) -> MaterialImporter:
    cache = tmp_path / "transcripts"
    return MaterialImporter(FileMaterialReader(transcripts_dir=cache),
                            FileSearchIndex(tmp_path / "index"), FixedClock(),
                            sources=sources or InMemorySourceStore(), embedder=HashEmbedder(),
                            transcriber=transcriber)  # type: ignore[arg-type]


async def test_an_undecodable_video_is_skipped_and_the_rest_is_indexed(tmp_path: Path):
    root = course(tmp_path / "course")
    script = ChatScript.from_data({"transcriber": [{"text": "never reached"}]},
                                  tmp_path / "cursor.json")
    # The real transcriber: ffmpeg cannot cut the video, so it raises InvalidInput.
    transcriber = LitellmTranscriber(None, None, tmp_path / "transcripts", script=script,  # type: ignore[arg-type]
                                     allow_network=False)
    sources = InMemorySourceStore()
    report = await importer(tmp_path, transcriber, sources).run(str(root))
    assert set(report.imported) == GOOD, report
    why = {s.path: s.reason for s in report.skipped}
    assert why["broken.mkv"].startswith("it could not be transcribed: broken.mkv could not be cut")
    assert why["corrupt.pdf"].startswith("a damaged PDF that cannot be read")
    assert why["latin1.txt"].startswith("not valid UTF-8")
    assert script.used("transcriber") == 0
    recorded = {s.path: s.status for s in sources.list()}
    assert recorded["broken.mkv"] == "skipped" and recorded["lecture.vtt"] == "imported"
    index = FileSearchIndex(tmp_path / "index")
    assert all(index.source_hash(s.id) for s in sources.list() if s.path in GOOD)


class Failing:
    """A transcriber that fails the way a provider or a decoder can: any class at all."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    async def transcribe(self, root: str, path: str) -> MaterialFile | SkippedFile:
        raise self.error


@pytest.mark.parametrize("error", [InvalidInput("the video has no audio stream"),
                                   RuntimeError("decoder crashed"), OSError(5, "I/O error")])
async def test_a_transcriber_failing_with_any_error_skips_only_that_file(tmp_path: Path,
                                                                        error: Exception):
    root = course(tmp_path / "course")
    report = await importer(tmp_path, Failing(error)).run(str(root))
    assert set(report.imported) == GOOD
    reason = next(s.reason for s in report.skipped if s.path == "broken.mkv")
    assert reason.startswith("it could not be transcribed")
    assert type(error).__name__ in reason or str(error) in reason


async def test_a_reader_raising_something_unexpected_skips_only_that_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    root = course(tmp_path / "course")

    def explodes(root: str, path: str, rule: object) -> MaterialFile:
        raise RecursionError("maximum recursion depth exceeded in a damaged xref table")

    monkeypatch.setitem(material_module.READERS, ".pdf", explodes)
    report = await importer(tmp_path).run(str(root))
    assert GOOD <= set(report.imported)
    reason = next(s.reason for s in report.skipped if s.path == "corrupt.pdf")
    assert reason == ("it could not be read (RecursionError: maximum recursion depth exceeded "
                      "in a damaged xref table)")
