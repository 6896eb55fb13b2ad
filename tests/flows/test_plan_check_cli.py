"""``studyhall plan check FILE``: JSON on success, line/column errors and exit 1 otherwise —
run as a real subprocess, the way a user or another program runs it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

PLAN = (
    "flowchart LR\n"
    "    A[Vertices and edges] --> B(Paths)\n"
    "    B -->|then| C{Cycles?}\n"
    "    C -. optional .-> D[[Trees]]\n"
)


def check(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "studyhall", "plan", "check", *args],
        input=stdin.decode("utf-8", "surrogateescape") if stdin is not None else None,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_a_valid_plan_prints_json_and_exits_0(tmp_path: Path) -> None:
    path = tmp_path / "plan.mmd"
    path.write_text(PLAN, encoding="utf-8")
    done = check(str(path))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "direction": "LR",
        "nodes": [
            {"id": "A", "label": "Vertices and edges", "shape": "rect"},
            {"id": "B", "label": "Paths", "shape": "round"},
            {"id": "C", "label": "Cycles?", "shape": "diamond"},
            {"id": "D", "label": "Trees", "shape": "subroutine"},
        ],
        "edges": [
            {"from": "A", "to": "B", "label": None, "kind": "arrow"},
            {"from": "B", "to": "C", "label": "then", "kind": "arrow"},
            {"from": "C", "to": "D", "label": "optional", "kind": "dotted"},
        ],
    }
    assert done.stderr == ""


def test_stdin_is_read_with_a_dash() -> None:
    done = check("-", stdin=b"graph TD;A-->B;\n")
    assert done.returncode == 0
    assert [n["id"] for n in json.loads(done.stdout)["nodes"]] == ["A", "B"]


def test_errors_print_line_and_column_and_exit_1(tmp_path: Path) -> None:
    path = tmp_path / "bad.mmd"
    path.write_text("graph TD\nA --> B\nB --> ;\nB --x C\nC --> A\n", encoding="utf-8")
    done = check(str(path))
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        "line 3, col 7: expected a node id after '-->', found ';'",
        "line 4, col 3: unsupported edge '--x' (cross end); use -->, ---, -.-> or ==>",
    ]
    assert "Traceback" not in done.stderr


def test_json_errors_and_groups(tmp_path: Path) -> None:
    bad = check("-", "--json", stdin=b"graph TD\nA --> A\n")
    assert bad.returncode == 1
    assert json.loads(bad.stdout)["errors"][0]["line"] == 2
    good = check("-", "--groups", stdin=b"graph TD\nsubgraph s[Start]\nA\nend\n")
    out = json.loads(good.stdout)
    assert out["nodes"] == [{"id": "A", "label": "A", "shape": "rect", "group": "s"}]
    assert out["groups"] == [{"id": "s", "title": "Start", "parent": None, "direction": None}]


def test_unreadable_input_is_a_clear_message_never_a_traceback(tmp_path: Path) -> None:
    missing = check(str(tmp_path / "nope.mmd"))
    assert missing.returncode == 1
    assert missing.stderr.strip() == (
        f"studyhall plan check: cannot read {tmp_path / 'nope.mmd'}: No such file or directory"
    )
    folder = check(str(tmp_path))
    assert folder.returncode == 1 and "Is a directory" in folder.stderr
    binary = tmp_path / "bin.mmd"
    binary.write_bytes(b"graph TD\n\xff\xfe\x00")
    not_text = check(str(binary))
    assert not_text.returncode == 1 and "not UTF-8 text (byte 9)" in not_text.stderr
    huge = tmp_path / "huge.mmd"
    huge.write_bytes(b"graph TD\n" + b"A\n" * 30_000)
    too_big = check(str(huge))
    assert too_big.returncode == 1 and "larger than the 50000-byte limit" in too_big.stderr
    for done in (missing, folder, not_text, too_big):
        assert "Traceback" not in done.stderr and done.stdout == ""


def test_help_names_the_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "studyhall", "plan", "check", "--help"],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 0 and "line N, col M" in done.stdout


def test_a_reader_that_goes_away_is_not_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "plan.mmd"
    path.write_text(PLAN, encoding="utf-8")
    read_end, write_end = os.pipe()
    os.close(read_end)  # like `studyhall plan check plan.mmd | head -0`
    try:
        done = subprocess.run(
            [sys.executable, "-m", "studyhall", "plan", "check", str(path)],
            stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=60, check=False,
        )
    finally:
        os.close(write_end)
    assert "Traceback" not in done.stderr and done.stderr == ""


def test_output_is_utf8_whatever_the_locale() -> None:
    env = {**os.environ, "PYTHONIOENCODING": "ascii", "LC_ALL": "C"}
    done = subprocess.run(
        [sys.executable, "-m", "studyhall", "plan", "check", "-"],
        input="graph TD\nÅ[Ünïcødé] --> B\n".encode(), capture_output=True, env=env,
        timeout=60, check=False,
    )
    assert done.returncode == 0
    assert json.loads(done.stdout.decode("utf-8"))["nodes"][0]["label"] == "Ünïcødé"
