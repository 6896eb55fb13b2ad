"""A note's pictures over the real app: embeds and relative images in the reader's Markdown
point at the image route, which serves a picture from inside the note's own vault and nothing
else — no ``..`` (plain or ``%2e%2e``), no absolute path, no symlink out, no page or SVG dressed
as a picture, no deleted source."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from urllib.parse import quote

from studyhall.server.app import build_services

from tests.support.embedder import HashEmbedder
from tests.support.picture_vault import make_picture_vault
from tests.support.server import api_client, make_config


def _imported(client, vault: Path) -> dict[str, dict]:
    run = client.post("/api/graph/import", json={"path": str(vault)}).json()["run_id"]
    deadline = time.monotonic() + 60
    while client.get(f"/api/graph/import/{run}").json()["status"] == "running":
        assert time.monotonic() < deadline, "the import did not finish"
        time.sleep(0.05)
    return {s["path"]: s for s in client.get("/api/sources").json()}


def _client():
    return api_client(replace(build_services(make_config()), embedder=HashEmbedder()))


def test_embeds_and_relative_images_become_pictures_from_the_vault(tmp_path: Path):
    vault, _ = make_picture_vault(tmp_path)
    with _client() as client:
        note = _imported(client, vault)["notes/Interface.md"]
        markdown = client.get(f"/api/sources/{note['id']}").json()["markdown"]
        url = f"/api/sources/{note['id']}/image?path="
        assert f"![status-bar-desktop.png]({url}attachments/status-bar-desktop.png)" in markdown
        assert f"![status-bar-desktop.png]({url}attachments/status-bar-desktop.png#w=300)" in markdown
        assert f"![Ribbon on the left]({url}attachments/ribbon.png)" in markdown
        assert "*(embedded: missing-picture.png)*" in markdown  # not in the vault: a mention
        assert "(embedded: status-bar-desktop.png" not in markdown

        picture = client.get(f"{url}attachments/status-bar-desktop.png")
        assert picture.status_code == 200 and picture.headers["content-type"] == "image/png"
        assert picture.content.startswith(b"\x89PNG")
        assert "sandbox" in picture.headers["content-security-policy"]


def test_the_image_route_serves_nothing_outside_the_vault_or_not_a_picture(tmp_path: Path):
    vault, secret = make_picture_vault(tmp_path)
    (tmp_path / "Vault" / "notes" / "page.html").write_text("<script>alert(1)</script>")
    with _client() as client:
        note = _imported(client, vault)["notes/Interface.md"]
        base = f"/api/sources/{note['id']}/image"
        refused = [
            "../secret.png", "attachments/../../secret.png", str(secret), "/etc/passwd",
            "attachments/escape.png",   # a symlink that leaves the vault
            "attachments/page.png",     # a page named like a picture: its bytes say otherwise
            "attachments/drawing.svg",  # an SVG can carry a script
            "notes/page.html", "notes/Interface.md", "attachments/nothing.png",
        ]
        for bad in refused:
            answer = client.get(f"{base}?path={quote(bad, safe='')}")
            assert answer.status_code == 404, bad
            assert not answer.content.startswith(b"\x89PNG"), bad
        for raw in ("%2e%2e/secret.png", "attachments/%2e%2e/%2e%2e/secret.png",
                    "%2E%2E%2Fsecret.png", "..%5Csecret.png"):
            answer = client.get(f"{base}?path={raw}")
            assert answer.status_code == 404, raw
        assert client.get(base).status_code == 400  # no path at all
        assert client.get(f"{base}?path=a.png&path=b.png").status_code == 400
        assert client.get("/api/sources/note_nope/image?path=attachments/ribbon.png").status_code == 404

        client.delete(f"/api/sources/{note['id']}")
        assert client.get(f"{base}?path=attachments/ribbon.png").status_code == 404
