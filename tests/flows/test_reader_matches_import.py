"""The reader serves exactly what the import read (issue 27, smaller items): a root note named
``x:y.md`` or ``back\\slash.md`` imports and opens in the reader; a note the import skipped (not
UTF-8, over the 2 MB limit) is refused by the reader too, with the import's own reason."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest
from studyhall.adapters.sources.vault import DEFAULT_MAX_BYTES
from studyhall.server.app import build_services

from tests.support.embedder import HashEmbedder
from tests.support.server import api_client, make_config
from tests.support.server import imported_over_http as finish


@pytest.mark.skipif(os.name == "nt", reason="':' and '\\' cannot be in a Windows file name")
def test_notes_named_with_a_colon_or_a_backslash_open_in_the_reader(tmp_path: Path):
    vault = tmp_path / "vault"
    vault.mkdir()
    names = ("x:y.md", "back\\slash.md", "c:drive-like.md")
    for name in names:
        (vault / name).write_text(f"# {name}\n\nA note called {name}.\n")
    client = api_client(replace(build_services(make_config()), embedder=HashEmbedder()))
    with client:
        finish(client, vault)
        listed = {s["path"]: s for s in client.get("/api/sources").json()}
        for name in names:
            assert listed[name]["status"] == "imported", listed[name]
            body = client.get(f"/api/sources/{listed[name]['id']}")
            assert body.status_code == 200, (name, body.text)
            assert f"A note called {name}." in body.json()["markdown"]


def test_the_reader_refuses_the_notes_the_import_skipped_with_the_same_reason(tmp_path: Path):
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "good.md").write_text("# Good\n\nA readable note.\n")
    (vault / "latin1.md").write_bytes("# Caf\xe9\n\ncr\xe8me br\xfbl\xe9e\n".encode("latin-1"))
    (vault / "huge.md").write_text("# Huge\n\n" + "word " * (DEFAULT_MAX_BYTES // 5 + 10))
    client = api_client(replace(build_services(make_config()), embedder=HashEmbedder()))
    with client:
        finish(client, vault)
        listed = {s["path"]: s for s in client.get("/api/sources").json()}
        assert client.get(f"/api/sources/{listed['good.md']['id']}").status_code == 200
        for name in ("latin1.md", "huge.md"):
            skipped = listed[name]
            assert skipped["status"] == "skipped", skipped
            body = client.get(f"/api/sources/{skipped['id']}")
            assert body.status_code == 400, (name, body.text)
            assert skipped["reason"] in body.json()["message"], (skipped["reason"], body.text)
            assert "me br" not in body.text and "word word" not in body.text
        # A note that grew past the limit after it was imported is refused the same way.
        (vault / "good.md").write_text("# Good\n\n" + "more " * (DEFAULT_MAX_BYTES // 5 + 10))
        grown = client.get(f"/api/sources/{listed['good.md']['id']}")
        assert grown.status_code == 400 and "too large" in grown.json()["message"]
