"""`studyhall ask` with no model and `studyhall eval retrieval --json`, through the real wiring
(bundled MiniLM, on-disk index in the test's data dir)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from studyhall.desktop.cli import main

from tests.support.course import vtt


def _material(root: Path) -> Path:
    root.mkdir()
    (root / "gc.vtt").write_text(vtt([
        (0, 6, "Mark and sweep marks every object reachable from the roots."),
        (7, 13, "The sweep phase frees every unmarked object on the heap."),
        (200, 206, "The generational hypothesis says that most objects die young."),
    ]))
    (root / "tcp.txt").write_text("Slow start doubles the congestion window every round trip.\n")
    return root


def test_eval_retrieval_json_prints_one_line_per_question(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    material = _material(tmp_path / "course")
    questions = tmp_path / "q.jsonl"
    rows = [
        {"question": "How fast does slow start grow the congestion window?", "gold": ["tcp.txt"], "answerable": True},
        {"question": "What do most objects do according to the generational hypothesis?", "gold": ["gc.vtt#t=200"], "answerable": True},
        {"question": "Who painted the Mona Lisa?", "gold": [], "answerable": False},
    ]
    questions.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    assert main(["eval", "retrieval", "--questions", str(questions), "--material", str(material), "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [set(line) for line in lines] == [{"question", "case", "ranked"}] * 3
    assert [line["question"] for line in lines] == [r["question"] for r in rows]
    assert lines[0]["ranked"][0] == "tcp.txt"
    assert lines[1]["ranked"][0].startswith("gc.vtt#t=")
    assert lines[2]["case"] == "NO_MATCH"

    assert main(["eval", "retrieval", "--questions", str(questions)]) == 0  # index persisted
    table = capsys.readouterr().out
    assert "R@1" in table and "false cit." in table and "0/1" in table
    assert "false abs." in table  # answerable questions told "not in your material"


def test_ask_without_a_model_gives_the_case_and_passages(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    questions = tmp_path / "q.jsonl"
    questions.write_text(json.dumps({"question": "x?", "gold": []}) + "\n")
    main(["eval", "retrieval", "--questions", str(questions), "--material", str(_material(tmp_path / "c"))])
    capsys.readouterr()
    assert main(["ask", "What does the sweep phase free?", "--json", "--no-model"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["case"] in {"MATCH", "RELATED", "NO_MATCH"} and out["answer"] is None
    assert out["ranked"][0].startswith("gc.vtt#t=")
    assert (out["case"] == "NO_MATCH") == (out["citations"] == [])
    assert main(["ask", "What does the sweep phase free?", "--no-model"]) == 0
    human = capsys.readouterr().out
    assert out["case"] in human and "gc.vtt#t=" in human
    # Where to read first in the nearest passages, whatever the case (no answer is written).
    assert any("sweep" in s.lower() for s in out["closest"].values()), out["closest"]
    assert out["case"] != "NO_MATCH" or "closest to your question: “" in human


def test_eval_with_nothing_imported_or_a_bad_file_says_what_to_do(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    questions = tmp_path / "q.jsonl"
    questions.write_text('{"question": "a?", "gold": []}\n')
    assert main(["eval", "retrieval", "--questions", str(questions)]) == 1
    assert "studyhall import" in capsys.readouterr().err
    questions.write_text('{"question": "a?"}\n{broken\n')
    assert main(["eval", "retrieval", "--questions", str(questions)]) == 1
    assert "line 2" in capsys.readouterr().err


def test_after_an_embedding_model_switch_ask_and_eval_say_to_re_import(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    import os

    from studyhall.adapters.store.settings import JsonSettingsStore
    from studyhall.core.contracts.settings import RoleModel

    questions = tmp_path / "q.jsonl"
    questions.write_text(json.dumps({"question": "What does the sweep phase free?", "gold": ["gc.vtt"]}) + "\n")
    assert main(["eval", "retrieval", "--questions", str(questions), "--material", str(_material(tmp_path / "c"))]) == 0
    assert "Re-import" not in capsys.readouterr().err  # indexed by the bundled MiniLM, which is current
    store = JsonSettingsStore(Path(os.environ["STUDYHALL_DATA_DIR"]) / "settings.json")
    store.save(store.load().model_copy(update={"embedding": RoleModel(model="openai/text-embedding-3-small")}))

    assert main(["ask", "What does the sweep phase free?", "--no-model"]) == 0
    out = capsys.readouterr()
    assert "Re-import your material" in out.err and "openai/text-embedding-3-small" in out.err
    assert "gc.vtt#t=" in out.out  # words alone still find the passage
    assert main(["ask", "What does the sweep phase free?", "--no-model", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert [n["kind"] for n in result["notices"]] == ["reindex"] and result["ranked"][0].startswith("gc.vtt#t=")
    assert main(["eval", "retrieval", "--questions", str(questions)]) == 0
    assert "Re-import your material" in capsys.readouterr().err
