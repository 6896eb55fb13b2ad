"""Audio/video imported without captions: transcribed once with the transcriber role (scripted),
cached by content hash, indexed and cited by the second; long audio cut by the packaged ffmpeg
with absolute times; no key -> "needs transcription" with the action that fixes it."""

from __future__ import annotations

import itertools
import wave
from pathlib import Path

from studyhall.adapters.fakes import FixedClock, InMemorySourceStore
from studyhall.adapters.llm.audio_chunks import AudioChunk, transcribe_in_chunks
from studyhall.adapters.llm.script import ChatScript
from studyhall.adapters.llm.transcriber import LitellmTranscriber
from studyhall.adapters.search.index import FileSearchIndex
from studyhall.adapters.sources.material import FileMaterialReader
from studyhall.core.contracts.material import Segment
from studyhall.core.library.retrieval.hybrid import Retriever
from studyhall.core.library.retrieval.match_cases import Calibration
from studyhall.core.library.sources.material_import import TRANSCRIBER_ACTION, MaterialImporter

from tests.support.course import OverlapScorer
from tests.support.embedder import HashEmbedder

CUES = [{"start": 0.0, "end": 0.6, "text": "Today we study garbage collection."},
        {"start": 0.6, "end": 1.0, "text": "Reference counting cannot reclaim cycles of objects."}]


def _wav(path: Path, seconds: float, rate: int = 8000) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(b"\x00\x01" * int(seconds * rate))
    return path


def _importer(tmp_path: Path, sources: InMemorySourceStore, script: ChatScript | None,
              why: str | None = None) -> MaterialImporter:
    cache = tmp_path / "transcripts"
    transcriber = LitellmTranscriber(None, None, cache, script=script, allow_network=False)  # type: ignore[arg-type]
    return MaterialImporter(FileMaterialReader(transcripts_dir=cache), FileSearchIndex(tmp_path / "index"),
                            FixedClock(), sources=sources, embedder=HashEmbedder(),
                            transcriber=transcriber, no_transcriber=lambda: why)


async def test_audio_without_captions_is_transcribed_once_indexed_and_cited(tmp_path: Path):
    root = tmp_path / "course"
    _wav(root / "lectures" / "gc.wav", 1.0)
    _wav(root / "lectures" / "captioned.wav", 1.0)
    (root / "lectures" / "captioned.vtt").write_text("WEBVTT\n\n00:00.000 --> 00:01.000\nHello there.\n")
    script = ChatScript.from_data({"transcriber": [{"segments": CUES}]}, tmp_path / "cursor.json")
    sources = InMemorySourceStore()
    first = await _importer(tmp_path, sources, script).run(str(root))
    assert sorted(first.imported) == ["lectures/captioned.vtt", "lectures/gc.wav"]
    assert script.used("transcriber") == 1  # the captioned file was not sent
    gc = next(s for s in sources.list() if s.path == "lectures/gc.wav")
    assert gc.kind == "transcript" and gc.media == "lectures/gc.wav" and gc.status == "imported"
    assert (tmp_path / "transcripts" / f"{gc.content_hash}.vtt").is_file()

    again = await _importer(tmp_path, sources, script).run(str(root))  # the cache answers
    assert again.unchanged and "lectures/gc.wav" in again.unchanged and script.used("transcriber") == 1

    cal = Calibration(match_late=0.8, match_coverage=0.6, related_late=0.5, match_dense=0.9,
                      related_dense=0.9, related_coverage=0.3)
    r = await Retriever(FileSearchIndex(tmp_path / "index"), embedder=HashEmbedder(),
                        scorer=OverlapScorer(), calibration=cal).retrieve(
        "Why can reference counting not reclaim cycles?")
    assert r.cited and r.cited[0].chunk.link.startswith("lectures/gc.wav#t=")


async def test_no_transcriber_key_lists_the_file_as_needing_transcription(tmp_path: Path):
    root = tmp_path / "course"
    _wav(root / "talk.mp3", 0.2)  # bytes do not matter: nothing is sent
    sources = InMemorySourceStore()
    report = await _importer(tmp_path, sources, None, why="No OPENAI_API_KEY key is saved").run(str(root))
    assert report.needs_transcription == ["talk.mp3"] and not report.imported
    (talk,) = sources.list()
    assert talk.status == "needs_transcription" and talk.action == TRANSCRIBER_ACTION
    assert "OPENAI_API_KEY" in (talk.reason or "")


async def test_long_audio_is_cut_by_packaged_ffmpeg_and_cues_keep_absolute_times(tmp_path: Path):
    long_wav = _wav(tmp_path / "long.wav", 9.0, rate=16000)  # 288 kB

    async def echo(piece: AudioChunk) -> list[Segment]:
        with wave.open(str(piece.path)) as w:
            length = w.getnframes() / w.getframerate()
        return [Segment(f"{length:.2f}", start=0.0, end=length)]

    work = tmp_path / "work"
    work.mkdir()
    # A 100 kB limit: about 2.8 s of 16 kHz mono WAV per piece.
    cues = await transcribe_in_chunks(long_wav, work, echo, max_bytes=100_000)
    assert len(cues) == 4
    assert cues[0].start == 0.0
    for before, after in itertools.pairwise(cues):
        assert abs((after.start or 0) - (before.end or 0)) < 0.05  # each piece starts where the last ended
    assert abs((cues[-1].end or 0) - 9.0) < 0.05
    assert abs(sum(float(c.text) for c in cues) - 9.0) < 0.05


def test_the_shelf_shows_needs_transcription_and_how_to_fix_it(tmp_path: Path, monkeypatch):
    import time
    from dataclasses import replace

    from studyhall.server.app import build_services

    from tests.support.server import api_client, make_config

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    course = tmp_path / "Course"
    _wav(course / "lecture.m4a", 0.2)
    client = api_client(replace(build_services(make_config()), embedder=HashEmbedder()))
    with client:
        run_id = client.post("/api/graph/import", json={"path": str(course)}).json()["run_id"]
        deadline = time.monotonic() + 60
        while client.get(f"/api/graph/import/{run_id}").json()["status"] == "running":
            assert time.monotonic() < deadline, "the import did not finish"
            time.sleep(0.05)
        (lecture,) = [s for s in client.get("/api/sources").json() if s["path"] == "lecture.m4a"]
    assert lecture["status"] == "needs_transcription"
    assert lecture["action"] == "Add a key for the transcriber in Settings"
    assert "transcriber" in lecture["reason"] and lecture["chunks"] == 0
