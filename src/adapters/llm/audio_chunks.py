"""Audio cut under a provider's upload limit with the ffmpeg packaged in ``imageio-ffmpeg``, and
the pieces' transcripts merged back onto the file's own clock.

A file the provider accepts as it is and under the limit goes up whole. Anything else is turned
into 16 kHz mono WAV pieces by ffmpeg's segment muxer; its segment list gives each piece's exact
start, so every cue keeps its absolute time.
"""

from __future__ import annotations

import asyncio
import csv
import subprocess
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from studyhall.core.contracts.material import Segment
from studyhall.core.errors import InvalidInput

PROVIDER_LIMIT_BYTES = 25 * 1024 * 1024  # OpenAI's (and litellm's) transcription upload limit
SENT_AS_IS = (".mp3", ".m4a", ".wav", ".mp4", ".webm")  # formats the provider reads directly
_WAV_BYTES_PER_SECOND = 16_000 * 2  # 16 kHz, mono, 16-bit
MAX_SEGMENT_SECONDS = 600.0


@dataclass(frozen=True)
class AudioChunk:
    path: Path
    start: float  # seconds into the original file
    end: float | None = None  # None when the file was sent whole (its length was not measured)


ChunkTranscriber = Callable[[AudioChunk], Awaitable[list[Segment]]]


def segment_seconds_for(max_bytes: int) -> float:
    """Seconds of 16 kHz mono WAV that stay under ``max_bytes`` with a margin for headers."""
    return max(1.0, min(MAX_SEGMENT_SECONDS, max_bytes * 0.9 / _WAV_BYTES_PER_SECOND))


def ffmpeg_exe() -> str:
    try:
        import imageio_ffmpeg
    except ImportError as e:  # pragma: no cover - a dependency of the package
        raise InvalidInput("Splitting long audio needs imageio-ffmpeg: pip install imageio-ffmpeg") from e
    return str(imageio_ffmpeg.get_ffmpeg_exe())


def split_audio(source: Path, workdir: Path, segment_seconds: float) -> list[AudioChunk]:
    """``source``'s audio as WAV pieces of about ``segment_seconds`` each, in order."""
    listing = workdir / "chunks.csv"
    command = [
        ffmpeg_exe(), "-nostdin", "-v", "error", "-i", str(source), "-vn", "-ac", "1",
        "-ar", "16000", "-c:a", "pcm_s16le", "-f", "segment",
        "-segment_time", f"{segment_seconds:.3f}", "-segment_list", str(listing),
        "-segment_list_type", "csv", str(workdir / "chunk%05d.wav"),
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0 or not listing.is_file():
        why = (done.stderr or "").strip().splitlines()[-1:] or ["no audio stream"]
        raise InvalidInput(f"{source.name} could not be cut into pieces for transcription "
                           f"({why[0]}). Check that it plays, or add captions (.vtt) beside it.")
    with listing.open(newline="") as rows:
        return [AudioChunk(workdir / name, float(start), float(end))
                for name, start, end in csv.reader(rows)]


def chunks_for(source: Path, workdir: Path, max_bytes: int = PROVIDER_LIMIT_BYTES) -> list[AudioChunk]:
    if source.suffix.lower() in SENT_AS_IS and source.stat().st_size <= max_bytes:
        return [AudioChunk(source, 0.0)]
    return split_audio(source, workdir, segment_seconds_for(max_bytes))


def shifted(segments: list[Segment], offset: float) -> list[Segment]:
    """A piece's cues moved onto the whole file's clock."""
    return [Segment(s.text, start=(s.start or 0.0) + offset,
                    end=(s.end if s.end is not None else s.start or 0.0) + offset)
            for s in segments]


async def transcribe_in_chunks(source: Path, workdir: Path, transcribe_chunk: ChunkTranscriber,
                               max_bytes: int = PROVIDER_LIMIT_BYTES) -> list[Segment]:
    """Every piece transcribed in order (one call each), cues on the original file's clock."""
    pieces = await asyncio.to_thread(chunks_for, source, workdir, max_bytes)
    merged: list[Segment] = []
    for piece in pieces:
        merged.extend(shifted(await transcribe_chunk(piece), piece.start))
    return merged
