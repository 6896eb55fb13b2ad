"""``FileVaultReader``: every bad file is skipped with the reason a user can act on, and the walk
goes on; the vault root is found from any path inside it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from studyhall.adapters.sources import path_rule as path_rule_module
from studyhall.adapters.sources.vault import FileVaultReader
from studyhall.core.contracts.material import NoteFile, SkippedFile
from studyhall.core.errors import NotFound


def write(root: Path, rel: str, data: bytes | str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "Vault"
    (root / ".obsidian").mkdir(parents=True)
    write(root, "Good.md", "---\ntags: [a]\naliases: Alias\n---\n# Good\nText [[Other]]\n")
    write(root, "sub/Other.md", "other")
    write(root, "sub/pic.png", b"\x89PNG\x00\x00")
    write(root, ".obsidian/workspace.md", "hidden")
    write(root, ".trash/Old.md", "hidden")
    return root


def reasons(reader: FileVaultReader, root: Path) -> dict[str, str]:
    scan = reader.scan(str(root))
    out = {s.path: s.reason for s in scan.skipped}
    for path in scan.notes:
        got = reader.read(scan, path)
        if isinstance(got, SkippedFile):
            out[got.path] = got.reason
    return out


def test_a_clean_vault_lists_notes_and_attachments_not_hidden_files(vault: Path):
    scan = FileVaultReader().scan(str(vault))
    assert scan.root == str(vault)
    assert scan.target == ""
    assert scan.files == ("Good.md", "sub/Other.md", "sub/pic.png")
    assert scan.notes == ("Good.md", "sub/Other.md")
    assert scan.skipped == ()
    note = FileVaultReader().read(scan, "Good.md")
    assert isinstance(note, NoteFile)
    assert note.meta == {"tags": ["a"], "aliases": "Alias"} and note.meta_error is None
    assert note.size == len(note.text.encode()) and len(note.content_hash) == 64


def test_bad_files_are_skipped_each_with_its_reason(vault: Path):
    write(vault, "binary.md", b"abc\x00def")
    write(vault, "latin1.md", "caf\xe9".encode("latin-1"))
    write(vault, "huge.md", "x" * 2048)
    got = reasons(FileVaultReader(max_bytes=1024), vault)
    assert got["binary.md"] == "a binary file, not text"
    assert got["latin1.md"].startswith("not valid UTF-8 (bad byte at offset 3)")
    assert got["huge.md"] == "too large (2 KB; the limit is 1 KB)"
    assert "Good.md" not in got


def test_symlink_loops_escapes_and_duplicates_are_skipped(vault: Path, tmp_path: Path):
    outside = write(tmp_path / "elsewhere", "secret.md", "secret")
    os.symlink(outside, vault / "escape.md")
    os.symlink(outside.parent, vault / "escape-dir")
    os.symlink("..", vault / "sub" / "up")
    os.symlink("loop-b", vault / "loop-a")
    os.symlink("loop-a", vault / "loop-b")
    os.symlink("nowhere.md", vault / "dangling.md")
    os.symlink("sub", vault / "a-alias")  # sorts before the real folder: still the duplicate
    got = reasons(FileVaultReader(), vault)
    assert got == {
        "a-alias": "a symlink to sub, already read",
        "dangling.md": "a broken symlink",
        "escape-dir": "a symlink pointing outside the vault",
        "escape.md": "a symlink pointing outside the vault",
        "loop-a": "a symlink loop",
        "loop-b": "a symlink loop",
        "sub/up": "a symlink loop (it points to a folder that contains it)",
    }
    assert FileVaultReader().scan(str(vault)).notes == ("Good.md", "sub/Other.md")


def test_unreadable_files_are_skipped_and_the_walk_goes_on(vault: Path, monkeypatch):
    secret = write(vault, "private.md", "secret")
    if os.geteuid() != 0:
        secret.chmod(0)
    else:  # root reads anything: make the open fail the way it fails for a user
        real_open = open

        def guarded(path, *args, **kwargs):
            if str(path).endswith("private.md"):
                raise PermissionError(13, "Permission denied", str(path))
            return real_open(path, *args, **kwargs)

        # every reader opens through the one path rule
        monkeypatch.setattr(path_rule_module, "open", guarded, raising=False)
    got = reasons(FileVaultReader(), vault)
    assert got["private.md"].startswith("unreadable (permission denied)")
    assert "Good.md" not in got


def test_invalid_frontmatter_is_reported_and_the_note_still_imports(vault: Path):
    write(vault, "fm.md", "---\ntags: [unclosed\n---\nbody\n")
    write(vault, "list.md", "---\n- just\n- a list\n---\nbody\n")
    reader = FileVaultReader()
    scan = reader.scan(str(vault))
    bad, lst = reader.read(scan, "fm.md"), reader.read(scan, "list.md")
    assert isinstance(bad, NoteFile) and bad.meta == {}
    assert bad.meta_error and "not valid YAML" in bad.meta_error
    assert isinstance(lst, NoteFile) and lst.meta_error and "not a list of keys" in lst.meta_error


def test_yaml_tags_cannot_construct_objects(vault: Path):
    write(vault, "evil.md", "---\nx: !!python/object/apply:os.system ['echo pwned']\n---\n")
    reader = FileVaultReader()
    got = reader.read(reader.scan(str(vault)), "evil.md")
    assert isinstance(got, NoteFile) and got.meta == {} and got.meta_error


def test_a_single_note_is_read_against_its_whole_vault(vault: Path):
    scan = FileVaultReader().scan(str(vault / "sub" / "Other.md"))
    assert scan.root == str(vault) and scan.target == "sub/Other.md"
    assert scan.notes == ("sub/Other.md",)
    assert "Good.md" in scan.files  # links from this note resolve against the whole vault


def test_a_folder_without_obsidian_is_its_own_root(tmp_path: Path):
    write(tmp_path / "plain", "a.md", "a")
    scan = FileVaultReader().scan(str(tmp_path / "plain"))
    assert scan.root == str(tmp_path / "plain") and scan.notes == ("a.md",)


def test_a_file_that_is_not_markdown_is_no_note(tmp_path: Path):
    # Course material (PDF, transcripts) is the material importer's: not a note, not skipped.
    pdf = write(tmp_path / "docs", "paper.pdf", b"%PDF")
    scan = FileVaultReader().scan(str(pdf))
    assert (scan.notes, scan.skipped, scan.files) == ((), (), ("paper.pdf",))


def test_a_missing_path_says_so(tmp_path: Path):
    with pytest.raises(NotFound, match="There is nothing at"):
        FileVaultReader().scan(str(tmp_path / "nope"))


def test_a_file_swapped_for_an_escaping_symlink_after_the_scan_is_refused(vault: Path, tmp_path):
    reader = FileVaultReader()
    scan = reader.scan(str(vault))
    outside = write(tmp_path / "elsewhere", "x.md", "secret")
    (vault / "Good.md").unlink()
    os.symlink(outside, vault / "Good.md")
    got = reader.read(scan, "Good.md")
    assert isinstance(got, SkippedFile) and "outside the vault" in got.reason


def test_the_home_folder_is_never_taken_for_the_vault(tmp_path: Path, monkeypatch):
    home = tmp_path / "home"
    (home / ".obsidian").mkdir(parents=True)  # a vault at home level would mean walking it all
    write(home / "notes", "a.md", "a")
    monkeypatch.setenv("HOME", str(home))
    scan = FileVaultReader().scan(str(home / "notes"))
    assert scan.root == str(home / "notes") and scan.files == ("a.md",)
