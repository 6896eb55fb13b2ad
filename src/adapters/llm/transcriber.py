"""``LitellmTranscriber``: audio and video to a timed transcript with the learner's own key,
through ``litellm.atranscription`` under the ``transcriber`` role.

The result is cached by the file's content hash (``transcript_cache``), so the same bytes are
sent once. Long files go up in pieces under the provider's limit (``audio_chunks``). With
``STUDYHALL_SCRIPT`` the script's ``transcriber`` entries answer; in testing mode a real call is
refused unless the role points at a loopback server.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any

from studyhall.adapters.llm.audio_chunks import (
    PROVIDER_LIMIT_BYTES,
    AudioChunk,
    ChunkTranscriber,
    transcribe_in_chunks,
)
from studyhall.adapters.llm.litellm_errors import CallTarget, classify, detail_of, model_error
from studyhall.adapters.llm.script import ChatScript
from studyhall.adapters.sources.path_rule import ROOT_ONLY, PathRule, Refused
from studyhall.adapters.sources.transcript_cache import cached_transcript, media_hash, write_vtt
from studyhall.core.contracts.api_keys import key_names, provider_of
from studyhall.core.contracts.material import (
    NEEDS_TRANSCRIPTION,
    MaterialFile,
    Segment,
    SkippedFile,
)
from studyhall.core.contracts.servers import is_loopback
from studyhall.core.errors import ModelNetworkDisabled, ModelNotConfigured, StudyhallError
from studyhall.core.ports.storage import SecretStore, SettingsStore


class LitellmTranscriber:
    def __init__(self, settings_store: SettingsStore, secret_store: SecretStore, cache_dir: Path,
                 *, script: ChatScript | None = None, allow_network: bool = True,
                 max_bytes: int = PROVIDER_LIMIT_BYTES, rule: PathRule = ROOT_ONLY) -> None:
        self._settings = settings_store
        self._secrets = secret_store
        self._cache_dir = cache_dir
        self._script = script
        self._allow_network = allow_network
        self._max_bytes = max_bytes
        self._rule = rule  # the media file is read (and sent) only as the path rule allows

    async def transcribe(self, root: str, path: str) -> MaterialFile | SkippedFile:
        cached = await asyncio.to_thread(cached_transcript, self._cache_dir, root, path,
                                         self._rule)
        if isinstance(cached, MaterialFile) or cached.reason != NEEDS_TRANSCRIPTION:
            return cached  # transcribed before, or not to be read at all
        located = self._rule.locate(root, path)
        if isinstance(located, Refused):
            return SkippedFile(path, located.reason)
        full = Path(located)
        content_hash, _ = await asyncio.to_thread(media_hash, full)
        one_piece = await self._chunk_transcriber()
        with tempfile.TemporaryDirectory(prefix="studyhall-transcribe-") as work:
            segments = await transcribe_in_chunks(full, Path(work), one_piece, self._max_bytes)
        await asyncio.to_thread(write_vtt, self._cache_dir, content_hash, segments)
        return await asyncio.to_thread(cached_transcript, self._cache_dir, root, path,
                                       self._rule)

    async def _chunk_transcriber(self) -> ChunkTranscriber:
        if self._script is not None:
            return self._scripted
        role = self._settings.load().model_for("transcriber")
        provider = provider_of(role.model) or "openai"
        target = CallTarget(role="transcriber", model=role.model, provider=provider,
                            api_base=role.api_base)
        if not self._allow_network and not (role.api_base and is_loopback(role.api_base)):
            raise ModelNetworkDisabled(
                f"Real model calls are off (STUDYHALL_TESTING=1), so the transcriber cannot call "
                f"{role.model}. Set STUDYHALL_SCRIPT to a model script with a transcriber list.",
                role="transcriber", provider=provider)
        key = None
        for name in key_names(provider, role.api_base):
            key = await asyncio.to_thread(self._secrets.get, name) or None
            if key:
                break

        async def call(piece: AudioChunk) -> list[Segment]:
            import litellm  # heavy: only when a file is really transcribed

            options: dict[str, Any] = {"api_key": key} if key else {}
            if role.api_base:
                options["api_base"] = role.api_base
            try:
                with piece.path.open("rb") as audio:
                    response = await litellm.atranscription(
                        model=role.model, file=audio, response_format="verbose_json",
                        timestamp_granularities=["segment"], **options)
            except StudyhallError:
                raise
            except Exception as exc:
                secrets = (key,) if key else ()
                raise model_error(classify(litellm, exc), target,
                                  detail=detail_of(exc, secrets)) from exc
            return _segments_of(response, piece)

        return call

    async def _scripted(self, piece: AudioChunk) -> list[Segment]:
        assert self._script is not None
        entry = self._script.next("transcriber")
        if entry.error is not None:
            raise model_error(entry.error, CallTarget(role="transcriber", model="scripted",
                                                      provider="scripted"))
        if entry.segments:
            return [Segment(text, start=start, end=end) for start, end, text in entry.segments]
        if entry.text is None:
            raise ModelNotConfigured('A transcriber script entry needs "text" or "segments".',
                                     role="transcriber")
        return [Segment(entry.text, start=0.0, end=_length(piece))]


def _length(piece: AudioChunk) -> float:
    return piece.end - piece.start if piece.end is not None else 0.0


def _segments_of(response: Any, piece: AudioChunk) -> list[Segment]:
    """The provider's timed segments (verbose_json), else its whole text as one cue."""
    raw = getattr(response, "segments", None)
    if raw is None and isinstance(response, dict):
        raw = response.get("segments")
    cues: list[Segment] = []
    for seg in raw or ():
        get = seg.get if isinstance(seg, dict) else (lambda k, s=seg: getattr(s, k, None))
        text, start, end = get("text"), get("start"), get("end")
        if isinstance(text, str) and text.strip() and start is not None:
            cues.append(Segment(text.strip(), start=float(start), end=float(end or start)))
    if cues:
        return cues
    text = getattr(response, "text", None) or (response.get("text") if isinstance(response, dict) else None)
    return [Segment(text, start=0.0, end=_length(piece))] if text else []
