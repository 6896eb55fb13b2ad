"""``studyhall export anki``: a real .apkg (read back with sqlite), stable GUIDs across exports,
maths / code / HTML rendered for Anki, scopes, and a write a kill cannot leave half done."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from studyhall.adapters.export.genanki_deck import MODEL_ID
from studyhall.desktop.cli import main

from tests.support.export_graph import CLUSTER, NOTE, read_apkg, seed


def data_dir() -> Path:
    return Path(os.environ["STUDYHALL_DATA_DIR"])


def by_front(notes: list[dict]) -> dict[str, dict]:
    return {n["fields"][0]: n for n in notes}


def test_the_deck_holds_one_note_per_node_with_front_back_source_and_tags(tmp_path):
    seed(data_dir())
    out = tmp_path / "deck.apkg"
    assert main(["export", "anki", "-o", str(out)]) == 0
    notes = read_apkg(out)
    assert len(notes) == 3
    assert {n["mid"] for n in notes} == {MODEL_ID}
    assert all(len(n["fields"]) == 3 for n in notes)
    chain = next(n for n in notes if "composition" in n["fields"][1])
    assert "chain rule: derivative of the outer" in chain["fields"][1]  # the evidence quote
    assert "<blockquote>" in chain["fields"][1]
    assert "maths/Calculus notes.md" in chain["fields"][2] and "file://" in chain["fields"][2]
    assert "studyhall" in chain["tags"]
    assert "cluster::Calculus_rules" in chain["tags"]
    assert "source::maths/Calculus_notes.md" in chain["tags"]
    assert all(" " not in t for n in notes for t in n["tags"])


def test_maths_and_code_render_and_everything_else_is_escaped(tmp_path):
    seed(data_dir())
    out = tmp_path / "deck.apkg"
    assert main(["export", "anki", "-o", str(out)]) == 0
    backs = [n["fields"][1] for n in read_apkg(out)]
    power = next(b for b in backs if "power rule" in b)
    assert "\\(\\frac{d}{dx} x^n = n x^{n-1}\\)" in power and "$" not in power
    code = next(b for b in backs if "len(xs)" in b)
    assert "<code>len(xs)</code>" in code
    assert "&lt;xs&gt; holds &amp; never" in code and "<xs>" not in code


def test_guids_are_stable_so_a_re_export_updates_the_same_anki_notes(tmp_path):
    seed(data_dir())
    first, second = tmp_path / "a.apkg", tmp_path / "b.apkg"
    assert main(["export", "anki", "-o", str(first)]) == 0
    time.sleep(0.01)  # a different write time: note ids may change, GUIDs may not
    assert main(["export", "anki", "-o", str(second)]) == 0
    a, b = read_apkg(first), read_apkg(second)
    assert [n["guid"] for n in a] == [n["guid"] for n in b]
    assert len({n["guid"] for n in a}) == 3
    # The same node keeps its GUID whatever the scope it was exported with.
    part = tmp_path / "part.apkg"
    assert main(["export", "anki", "--scope", f"cluster:{CLUSTER.id}", "-o", str(part)]) == 0
    scoped = read_apkg(part)
    assert len(scoped) == 2
    assert {n["guid"] for n in scoped} <= {n["guid"] for n in a}
    assert "Studyhall::Calculus rules" in scoped[0]["decks"]


@pytest.mark.parametrize(("scope", "count"), [
    ("all", 3), ("graph", 3), (f"source:{NOTE}", 1), ("node:n_code", 1), ("nodes:n_code", 1),
    (f"cluster:{CLUSTER.id}", 2)])
def test_a_scope_picks_its_nodes(tmp_path, scope, count):
    seed(data_dir())
    out = tmp_path / "deck.apkg"
    assert main(["export", "anki", "--scope", scope, "-o", str(out)]) == 0
    assert len(read_apkg(out)) == count


def test_an_unknown_scope_says_how_to_find_one(tmp_path, capsys):
    seed(data_dir())
    out = tmp_path / "deck.apkg"
    assert main(["export", "anki", "--scope", "cluster:nope", "-o", str(out)]) == 1
    assert "No cluster 'nope'" in capsys.readouterr().err
    assert main(["export", "anki", "--scope", "shelf:1", "-o", str(out)]) == 1
    assert "cluster:ID" in capsys.readouterr().err
    assert not out.exists()


def test_a_failed_write_leaves_the_old_deck_and_no_partial_file(tmp_path, monkeypatch):
    from studyhall.adapters.export import genanki_deck

    seed(data_dir())
    out = tmp_path / "deck.apkg"
    assert main(["export", "anki", "-o", str(out)]) == 0
    before = out.read_bytes()

    def broken(package, partial):
        partial.write_bytes(b"PK half a zip")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(genanki_deck, "_write_zip", broken)
    assert main(["export", "anki", "-o", str(out)]) == 1
    assert out.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.apkg"]


_SLOW_WRITER = """
import sys, time, zipfile
from studyhall.desktop.cli import main
real = zipfile.ZipFile.write
def slow(self, *a, **k):
    real(self, *a, **k)
    print("writing", flush=True)
    time.sleep(60)  # killed here: the zip is half written
zipfile.ZipFile.write = slow
sys.exit(main(["export", "anki", "-o", sys.argv[1]]))
"""


def test_a_kill_mid_write_never_leaves_a_half_deck(tmp_path):
    seed(data_dir())
    out = tmp_path / "deck.apkg"
    assert main(["export", "anki", "-o", str(out)]) == 0
    before = out.read_bytes()
    child = subprocess.Popen([sys.executable, "-c", _SLOW_WRITER, str(out)],
                             stdout=subprocess.PIPE, env=dict(os.environ))
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == b"writing"
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait(10)
    assert out.read_bytes() == before  # the old deck, whole
    assert len(read_apkg(out)) == 3


def test_a_rerun_removes_the_partial_a_killed_export_left(tmp_path):
    seed(data_dir())
    out = tmp_path / "deck.apkg"
    other = tmp_path / ".other.apkg.abcdefgh.partial"  # another target's: not this export's
    other.write_bytes(b"not ours")
    child = subprocess.Popen([sys.executable, "-c", _SLOW_WRITER, str(out)],
                             stdout=subprocess.PIPE, env=dict(os.environ))
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == b"writing"
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait(10)
    left = [p.name for p in tmp_path.iterdir() if p.name.startswith(".deck.apkg.")]
    assert len(left) == 1 and left[0].endswith(".partial"), left
    assert main(["export", "anki", "-o", str(out)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [other.name, "deck.apkg"]
    assert len(read_apkg(out)) == 3


def test_the_window_downloads_the_same_deck_over_http(tmp_path):
    from tests.support.server import api_client

    seed(data_dir())
    assert main(["export", "anki", "-o", str(tmp_path / "cli.apkg")]) == 0
    with api_client() as client:
        got = client.get("/api/export/anki", params={"scope": f"cluster:{CLUSTER.id}"})
        assert got.status_code == 200, got.text
        assert got.headers["content-type"] == "application/apkg"
        assert 'filename="Studyhall-Calculus-rules.apkg"' in got.headers["content-disposition"]
        (tmp_path / "http.apkg").write_bytes(got.content)
        assert client.get("/api/export/anki", params={"scope": "cluster:nope"}).status_code == 404
        assert client.get("/api/export/anki", params={"scope": "x"}).status_code == 400
        whole = client.get("/api/export/anki")
        assert whole.status_code == 200
        spec = client.get("/api/openapi.json").json()
        assert "application/apkg" in str(spec["paths"]["/api/export/anki"]["get"]["responses"])
    http_notes, cli_notes = read_apkg(tmp_path / "http.apkg"), read_apkg(tmp_path / "cli.apkg")
    assert len(http_notes) == 2
    cli = {n["guid"]: n["fields"] for n in cli_notes}
    assert all(cli[n["guid"]] == n["fields"] for n in http_notes)
