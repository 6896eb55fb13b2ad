"""``studyhall privacy scrub FILE|- [--json]`` end to end, as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

TEXT = "Hi, I'm Jordan Baker (jordan@example.com). Café card: 4111 1111 1111 1111.\n"


def studyhall(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "studyhall", *args], input=stdin, check=False,
                          capture_output=True, timeout=120)


def test_json_findings_have_offsets_into_the_input(tmp_path: Path) -> None:
    source = tmp_path / "note.txt"
    source.write_text(TEXT, encoding="utf-8")
    done = studyhall("privacy", "scrub", str(source), "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["text"] == "Hi, I'm <PERSON_1> (<EMAIL_1>). Café card: <CARD_1>.\n"
    got = [(f["type"], TEXT[f["start"]:f["end"]], f["placeholder"]) for f in out["findings"]]
    assert got == [("PERSON", "Jordan Baker", "<PERSON_1>"),
                   ("EMAIL", "jordan@example.com", "<EMAIL_1>"),
                   ("CARD", "4111 1111 1111 1111", "<CARD_1>")]


def test_stdin_prints_the_scrubbed_text() -> None:
    done = studyhall("privacy", "scrub", "-", stdin=b"call me at 555-201-3344")
    assert done.returncode == 0 and done.stdout.decode() == "call me at <PHONE_1>"


def test_non_utf8_input_is_one_clear_line_and_exit_1(tmp_path: Path) -> None:
    source = tmp_path / "latin1.txt"
    source.write_bytes("café".encode("latin-1"))
    done = studyhall("privacy", "scrub", str(source))
    assert done.returncode == 1 and done.stdout == b""
    lines = done.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and "not UTF-8" in lines[0] and "Traceback" not in lines[0]
    missing = studyhall("privacy", "scrub", str(tmp_path / "nope.txt"))
    assert missing.returncode == 1 and "cannot read" in missing.stderr.decode()
