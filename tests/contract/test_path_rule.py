"""``PathRule``: the one rule every reader of imported files asks — a plain relative path whose
real path is inside the real root and outside the protected (data) folder; a name swapped for a
symlink between the look and the open is still refused."""

from __future__ import annotations

import builtins
import os
from pathlib import Path

import pytest
from studyhall.adapters.sources import path_rule as path_rule_module
from studyhall.adapters.sources.path_rule import PROTECTED, PathRule, Refused


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, Path]:
    root, data = tmp_path / "vault", tmp_path / "data"
    (root / "sub").mkdir(parents=True)
    data.mkdir()
    (root / "sub" / "a.md").write_text("a")
    (data / "secrets.json").write_text("{}")
    (tmp_path / "outside.md").write_text("outside")
    return root, data


def test_only_plain_relative_paths_are_located(tree: tuple[Path, Path]):
    root, data = tree
    rule = PathRule.guarding(data)
    assert rule.locate(str(root), "sub/a.md") == os.path.realpath(root / "sub" / "a.md")
    for bad in ("", "/etc/passwd", "../outside.md", "sub/../../outside.md", "sub//a.md",
                "./sub/a.md", "sub/a.md\x00"):
        assert isinstance(rule.locate(str(root), bad), Refused), bad


@pytest.mark.skipif(os.name == "nt", reason="':' and '\\' cannot be in a Windows file name")
def test_colons_and_backslashes_are_ordinary_name_characters_on_posix(tree: tuple[Path, Path]):
    root, data = tree
    for name in ("x:y.md", "back\\slash.md", "c:notes.md"):
        (root / name).write_text("ok")
        assert PathRule.guarding(data).locate(str(root), name) == os.path.realpath(root / name)


def test_symlinks_out_of_the_root_or_into_the_data_folder_are_refused(tree: tuple[Path, Path]):
    root, data = tree
    os.symlink(root.parent / "outside.md", root / "out.md")
    os.symlink(data / "secrets.json", root / "key.md")
    os.symlink(data, root / "appdata")
    rule = PathRule.guarding(data).called("vault")
    assert rule.locate(str(root), "out.md") == Refused("a symlink pointing outside the vault")
    assert rule.locate(str(root), "key.md") == Refused(PROTECTED)
    assert rule.locate(str(root), "appdata/secrets.json") == Refused(PROTECTED)
    # A root that holds the data folder still never reads it.
    assert PathRule.guarding(data).locate(str(root.parent), "data/secrets.json") == Refused(PROTECTED)
    assert PathRule().locate(str(root.parent), "data/secrets.json") == os.path.realpath(
        data / "secrets.json")  # only the app's rule knows its data folder


def test_a_name_swapped_for_a_symlink_after_the_look_is_refused_once_open(
        tree: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch):
    root, data = tree
    real_open = builtins.open

    def swapped(path, *args, **kwargs):  # the race: the look saw a file, the open finds a link
        target = root / "sub" / "a.md"
        if str(path) == os.path.realpath(target):
            target.unlink()
            os.symlink(data / "secrets.json", target)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(path_rule_module, "open", swapped, raising=False)
    assert PathRule.guarding(data).open(str(root), "sub/a.md") == Refused(PROTECTED)


def test_open_gives_a_regular_file_and_refuses_a_fifo_without_waiting(tree: tuple[Path, Path]):
    root, data = tree
    opened = PathRule.guarding(data).open(str(root), "sub/a.md")
    assert not isinstance(opened, Refused)
    with opened[0] as fh:
        assert fh.read() == b"a"
    if hasattr(os, "mkfifo"):
        os.mkfifo(root / "pipe.md")
        got = PathRule.guarding(data).open(str(root), "pipe.md")
        assert isinstance(got, Refused) and got.reason.startswith("a named pipe (FIFO)")


def test_a_deck_linked_into_the_data_folder_is_refused_and_a_real_deck_reads(tmp_path: Path):
    from studyhall.adapters.sources.anki_package import AnkiPackageReader
    from studyhall.core.errors import InvalidInput

    from tests.support.anki_deck import write_deck

    data, decks = tmp_path / "data", tmp_path / "decks"
    data.mkdir()
    decks.mkdir()
    kept = write_deck(data / "kept.apkg")  # a real deck, but inside the data folder
    (decks / "linked.apkg").symlink_to(kept)
    reader = AnkiPackageReader(rule=PathRule.guarding(data))
    with pytest.raises(InvalidInput, match="data folder"):
        reader.read(str(decks / "linked.apkg"))
    real = write_deck(decks / "mine.apkg")
    assert reader.read(str(real)).notes
