"""One path rule for every reader (issue 27, F4): a symlink to the data folder's ``secrets.json``
or to ``/etc/passwd`` is never read — not by a single-file import, a folder import, the reader
or the media player, and not even when the imported folder holds the data folder. The secret
never reaches the index, an Ask passage, the reader's answer or the import's report."""

from __future__ import annotations

import asyncio
import json
import os
from dataclasses import replace
from pathlib import Path

import pytest
from studyhall.adapters.llm.script import ChatScript
from studyhall.adapters.llm.transcriber import LitellmTranscriber
from studyhall.adapters.sources.material import FileMaterialReader
from studyhall.adapters.sources.path_rule import PROTECTED, PathRule
from studyhall.core.contracts.material import SkippedFile
from studyhall.server.app import build_services

from tests.support.course import OverlapScorer
from tests.support.embedder import HashEmbedder
from tests.support.server import api_client, make_config
from tests.support.server import imported_over_http as imported

SECRET = "sk-test-NEVER-LEAVES-THE-KEY-STORE-0123456789"
NOTE = "# Garbage collection\n\nMark and sweep marks every object the roots reach.\n"


def passwd_line() -> str:
    passwd = Path("/etc/passwd")
    if not passwd.is_file() or not os.access(passwd, os.R_OK):
        pytest.skip("no readable /etc/passwd here")
    return passwd.read_text(errors="replace").splitlines()[0]


def app(data: Path | None = None):  # type: ignore[no-untyped-def]
    config = make_config(data_dir=data) if data is not None else make_config()
    services = replace(build_services(config), embedder=HashEmbedder(),
                       passage_scorer=OverlapScorer())  # fast stand-ins for the bundled MiniLM
    services.secret_store.set("openai", SECRET)
    assert SECRET in (config.data_dir / "secrets.json").read_text()
    return services, api_client(services)


PLANTED = "planted-keys.md"  # a note-shaped copy of the key, planted in the data folder


def stored_outside_the_key_store(data: Path) -> str:
    """Every byte the app wrote (index, sources, graph, logs), but the key store itself."""
    out = []
    for path in data.rglob("*"):
        if path.is_file() and path.name not in ("secrets.json", PLANTED):
            out.append(path.read_bytes().decode("utf-8", errors="replace"))
    return "\n".join(out)


def every_answer(services, client, secrets: tuple[str, ...]) -> str:  # type: ignore[no-untyped-def]
    """The shelf, each source's reader content and media, and Ask's passages, as one text."""
    texts = [client.get("/api/sources").text]
    for source in client.get("/api/sources").json():
        texts.append(client.get(f"/api/sources/{source['id']}").text)
        texts.append(client.get(f"/api/sources/{source['id']}/media").text)

    async def ask() -> str:
        desk = client.app.state.runtime.ask
        events = [e async for e in desk.answer(" ".join(secrets) + " api key openai",
                                               use_model=False)]
        return json.dumps([e.model_dump(mode="json") for e in events])

    texts.append(asyncio.run(ask()))
    return "\n".join(texts)


def assert_never_read(services, client, run: dict, secrets: tuple[str, ...]) -> None:  # type: ignore[no-untyped-def]
    seen = "\n".join([json.dumps(run), every_answer(services, client, secrets),
                      stored_outside_the_key_store(services.config.data_dir)])
    for secret in secrets:
        assert secret not in seen


def test_a_single_file_import_of_a_symlink_to_the_key_store_or_etc_passwd_reads_nothing(
        tmp_path: Path):
    passwd = passwd_line()
    services, client = app()
    course = tmp_path / "course"
    course.mkdir()
    (course / "gc.md").write_text(NOTE)
    os.symlink(services.config.data_dir / "secrets.json", course / "notes.txt")
    os.symlink("/etc/passwd", course / "passwd.txt")
    with client:
        imported(client, course / "gc.md")  # something for Ask to search
        for name in ("notes.txt", "passwd.txt"):
            run = imported(client, course / name)
            material = run["report"]["material"]
            assert material["imported"] == 0 and material["skipped"] == 1, run
            assert_never_read(services, client, run, (SECRET, passwd))
        reasons = {s["path"]: s["reason"] for s in client.get("/api/sources").json()
                   if s["status"] == "skipped"}
        assert reasons["notes.txt"] == PROTECTED
        assert reasons["passwd.txt"].startswith("a symlink pointing outside the")


def test_a_folder_import_skips_both_symlinks_and_indexes_the_rest(tmp_path: Path):
    passwd = passwd_line()
    services, client = app()
    course = tmp_path / "course"
    (course / "notes").mkdir(parents=True)
    (course / "notes" / "gc.md").write_text(NOTE)
    os.symlink(services.config.data_dir / "secrets.json", course / "notes" / "key.md")
    os.symlink(services.config.data_dir / "secrets.json", course / "key.txt")
    os.symlink("/etc/passwd", course / "passwd.txt")
    os.symlink(services.config.data_dir, course / "appdata")  # the whole data folder
    with client:
        run = imported(client, course)
        assert run["report"]["material"]["imported"] == 1, run  # gc.md alone
        assert_never_read(services, client, run, (SECRET, passwd))


def test_a_folder_holding_the_data_folder_never_reads_it(tmp_path: Path):
    course = tmp_path / "course"
    data = course / "studyhall-data"  # the learner keeps the app's data inside the vault
    data.mkdir(parents=True)
    services, client = app(data)
    (course / "gc.md").write_text(NOTE)
    (data / "transcripts").mkdir()
    (data / "transcripts" / "cached.vtt").write_text("WEBVTT\n\n00:00.000 --> 00:01.000\nhi\n")
    (data / PLANTED).write_text(f"# Keys\n\n{SECRET}\n")  # even a note-shaped file in it
    os.symlink(data / "secrets.json", course / "key.txt")  # a link that stays inside the root
    with client:
        run = imported(client, course)
        assert run["report"]["material"]["imported"] == 1 and run["report"]["notes"] == 1, run
        assert_never_read(services, client, run, (SECRET,))
        for source in client.get("/api/sources").json():  # reported, never imported
            if source["path"].startswith("studyhall-data") or source["path"] == "key.txt":
                assert (source["status"], source["reason"]) == ("skipped", PROTECTED), source
        # The data folder asked for itself, or one file in it: refused the same way.
        for inside in (data, data / PLANTED):
            run = imported(client, inside)
            assert run["report"]["material"]["imported"] == 0, run
            assert_never_read(services, client, run, (SECRET,))
        scan = services.vault_reader.scan(str(data))  # one line for the folder, not a walk of it
        assert scan.notes == () and [(s.path, s.reason) for s in scan.skipped] == [(".", PROTECTED)]


def test_the_reader_and_the_player_refuse_a_recorded_path_into_the_data_folder(tmp_path: Path):
    course = tmp_path / "course"
    data = course / "studyhall-data"
    data.mkdir(parents=True)
    services, client = app(data)
    (course / "gc.md").write_text(NOTE)
    (course / "talk.vtt").write_text("WEBVTT\n\n00:00.000 --> 00:01.000\nMark and sweep.\n")
    os.symlink(data / "secrets.json", course / "key.md")
    os.symlink(data / "secrets.json", course / "talk.m4a")
    with client:
        imported(client, course)
        store = services.source_store
        listed = {s["path"]: s["id"] for s in client.get("/api/sources").json()}
        note, talk = store.get(listed["gc.md"]), store.get(listed["talk.vtt"])
        # A record pointed at the data folder (the link, or the path itself): 404, no secret.
        for bad in ("key.md", "studyhall-data/secrets.json"):
            store.save(note.model_copy(update={"path": bad}))
            answer = client.get(f"/api/sources/{note.id}")
            assert answer.status_code == 404 and SECRET not in answer.text, bad
        for bad in ("talk.m4a", "studyhall-data/secrets.json"):
            store.save(talk.model_copy(update={"media": bad}))
            answer = client.get(f"/api/sources/{talk.id}/media")
            assert answer.status_code == 404 and SECRET not in answer.text, bad
            assert client.get(f"/api/sources/{talk.id}").json()["media"] is None


async def test_a_video_linked_to_the_key_store_is_never_sent_to_the_transcriber(tmp_path: Path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "secrets.json").write_text(json.dumps({"openai": SECRET}))
    course = tmp_path / "course"
    course.mkdir()
    os.symlink(data / "secrets.json", course / "talk.mkv")
    rule = PathRule.guarding(data)
    reader = FileMaterialReader(transcripts_dir=data / "transcripts", rule=rule)
    scan = reader.scan(str(course / "talk.mkv"))
    assert scan.files == () and scan.skipped == (SkippedFile("talk.mkv", PROTECTED),)
    script = ChatScript.from_data({"transcriber": [{"text": "never"}]}, tmp_path / "cursor.json")
    transcriber = LitellmTranscriber(None, None, data / "transcripts", script=script,  # type: ignore[arg-type]
                                     allow_network=False, rule=rule)
    got = await transcriber.transcribe(str(course), "talk.mkv")
    assert got == SkippedFile("talk.mkv", PROTECTED) and script.used("transcriber") == 0


def test_the_app_builds_every_reader_with_the_rule_that_guards_its_data_folder(tmp_path: Path):
    services, _ = app()
    guarded = (os.path.realpath(services.config.data_dir),)
    assert services.material_reader.rule.protected == guarded  # type: ignore[attr-defined]
    assert services.vault_reader.rule.protected == guarded  # type: ignore[attr-defined]
    assert services.transcriber._rule.protected == guarded  # type: ignore[attr-defined]
