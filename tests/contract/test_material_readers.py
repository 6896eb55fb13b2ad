"""Course readers: transcripts, PDFs, text; broken files come back skipped with a reason."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from studyhall.adapters.sources.material import FileMaterialReader
from studyhall.core.contracts.material import MaterialFile, SkippedFile
from studyhall.core.errors import NotFound

from tests.support.course import pdf_bytes, vtt


def _read(root: Path, rel: str) -> MaterialFile | SkippedFile:
    return FileMaterialReader().read(str(root), rel)


def test_vtt_cues_keep_their_times_and_media_beside_is_recorded(tmp_path: Path):
    (tmp_path / "l1.vtt").write_text(vtt([(1.5, 4, "Hello <b>tokens</b>."), (5, 9.25, "<v Ana>Maximal munch.")]))
    (tmp_path / "l1.mp4").write_bytes(b"\x00video")
    got = _read(tmp_path, "l1.vtt")
    assert isinstance(got, MaterialFile) and got.kind == "transcript"
    assert [(s.start, s.end, s.text) for s in got.segments] == [(1.5, 4.0, "Hello tokens."), (5.0, 9.25, "Maximal munch.")]
    assert got.media == "l1.mp4"


def test_srt_is_read_and_a_url_file_beside_it_is_the_media(tmp_path: Path):
    (tmp_path / "l2.srt").write_text(vtt([(0, 2, "One."), (62.5, 64, "Two.")], srt=True))
    (tmp_path / "l2.url").write_text("[InternetShortcut]\nURL=https://example.edu/v/2\n")
    got = _read(tmp_path, "l2.srt")
    assert isinstance(got, MaterialFile)
    assert [s.start for s in got.segments] == [0.0, 62.5]
    assert got.media == "https://example.edu/v/2"


@pytest.mark.parametrize(("name", "data", "reason"), [
    ("bad.vtt", b"not a transcript at all", "not a valid VTT"),
    ("empty.srt", b"", "not a valid SRT"),
    ("silent.vtt", b"WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n   \n", "no spoken text"),
    ("latin.vtt", "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\ncaf\xe9\n".encode("latin-1"), "not valid UTF-8"),
    ("bin.txt", b"\x00\x01\x02binary", "binary"),
    ("empty.txt", b"   \n", "empty"),
    ("fake.pdf", b"hello, not a pdf", "not a PDF"),
    ("torn.pdf", pdf_bytes(["Some text"])[:60], "damaged PDF"),
    ("blank.pdf", pdf_bytes([""]), "no text layer"),
])
def test_broken_files_are_skipped_with_a_reason(tmp_path: Path, name: str, data: bytes, reason: str):
    (tmp_path / name).write_bytes(data)
    got = _read(tmp_path, name)
    assert isinstance(got, SkippedFile), got
    assert reason in got.reason and got.path == name


def test_pdf_text_per_page(tmp_path: Path):
    (tmp_path / "h.pdf").write_bytes(pdf_bytes(["Slow start doubles the window.", "", "Loss halves it."]))
    got = _read(tmp_path, "h.pdf")
    assert isinstance(got, MaterialFile) and got.kind == "pdf"
    assert [(s.page, "window" in s.text or "halves" in s.text) for s in got.segments] == [(1, True), (3, True)]


def test_text_and_markdown(tmp_path: Path):
    (tmp_path / "g.txt").write_text("Closure: a function with its scope.\n\nTail call: reuse the frame.\n")
    (tmp_path / "n.md").write_text("# Big-O\n\nGrowth.\n\n## Hash tables\n\nO(1).\n")
    txt, md = _read(tmp_path, "g.txt"), _read(tmp_path, "n.md")
    assert isinstance(txt, MaterialFile) and txt.kind == "text" and txt.title == "g"
    assert isinstance(md, MaterialFile) and md.kind == "note" and md.title == "Big-O"
    assert [s.heading for s in md.segments] == ["Big-O", "Hash tables"]


def test_too_large_and_unreadable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    import studyhall.adapters.sources.text as text_mod

    (tmp_path / "big.txt").write_text("x" * 200)
    monkeypatch.setattr(text_mod, "MAX_TEXT_BYTES", 100)
    got = _read(tmp_path, "big.txt")
    assert isinstance(got, SkippedFile) and "too large" in got.reason
    got = _read(tmp_path, "missing.txt")
    assert isinstance(got, SkippedFile) and "could not be read" in got.reason


def test_scan_finds_course_files_skips_hidden_and_escaping_links(tmp_path: Path):
    root = tmp_path / "course"
    (root / "sub").mkdir(parents=True)
    (root / ".hidden").mkdir()
    (root / "sub" / "a.vtt").write_text(vtt([(0, 1, "A.")]))
    (root / ".hidden" / "b.txt").write_text("hidden")
    (root / "c.png").write_bytes(b"png")
    (tmp_path / "outside.txt").write_text("secret")
    os.symlink(tmp_path / "outside.txt", root / "link.txt")
    os.symlink(root, root / "sub" / "loop")
    scan = FileMaterialReader().scan(str(root))
    assert scan.files == ("sub/a.vtt",)
    assert any(s.path == "link.txt" and "outside" in s.reason for s in scan.skipped)
    with pytest.raises(NotFound):
        FileMaterialReader().scan(str(tmp_path / "nope"))
    single = FileMaterialReader().scan(str(root / "sub" / "a.vtt"))
    assert single.files == ("a.vtt",) and single.single_file


@pytest.mark.parametrize(("caption", "recording"), [
    ("X.eng.vtt", "X.mp4"), ("X.eng.vtt", "X.eng.mp4"), ("X.en-US.srt", "X.webm"),
    ("X.vtt", "X.mp4"),
])
def test_a_recording_pairs_with_its_captions_by_stem_and_language_tag(
        tmp_path: Path, caption: str, recording: str):
    srt = caption.endswith(".srt")
    (tmp_path / caption).write_text(vtt([(0, 2, "One."), (3, 5, "Two.")], srt=srt))
    (tmp_path / recording).write_bytes(b"\x00video")
    got = _read(tmp_path, caption)
    assert isinstance(got, MaterialFile) and got.media == recording
    # With a transcriber, the recording is not a second lecture waiting for transcription.
    scan = FileMaterialReader(transcripts_dir=tmp_path / "cache").scan(str(tmp_path))
    assert list(scan.files) == [caption]


def test_a_language_tag_is_only_a_short_tag_before_the_extension():
    from studyhall.core.contracts.material import pairing_stem

    assert pairing_stem("Lecture 3.eng.vtt") == pairing_stem("Lecture 3.mp4") == "Lecture 3"
    assert pairing_stem("talk.pt_BR.srt") == "talk"
    # Not tags: a version, a word, a second dot in a title.
    assert pairing_stem("Lecture 3.final.mp4") == "Lecture 3.final"
    assert pairing_stem("v1.2.vtt") == "v1.2"
    assert pairing_stem("notes.vtt") == "notes" and pairing_stem("eng.vtt") == "eng"
