"""Every repository path the docs name exists: README.md and docs/**/*.md are scanned for
backticked words, fenced code and Markdown links that look like paths in this repository, and
each must name a file or folder in the tree (a ``<placeholder>`` or ``*`` must match one). A
path from the root (``src/...``, ``tests/...``) or from ``src/`` (``server/http/chats.py``) must
exist as written; a shorter mention of a source file (``snapshot.py``, ``js/ask.js``) must be the
end of some file's path in the tree."""

from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# A path starting with one of these folders is a path from the repository's root...
ROOT_FOLDERS = {"src", "tests", "bench", "eval", "scripts", "docs", ".ci"}
# ...and one starting with a package of src/ is a path inside src/ (the package `studyhall`).
SRC_PACKAGES = {"core", "server", "adapters", "desktop"}
TOP_LEVEL_FILES = {
    "Makefile", "README.md", "pyproject.toml", "importlinter.ini", "schemathesis.toml",
}
# Made by running something, git-ignored: named by the docs, absent from a fresh checkout.
GENERATED = {"tests/browser/screenshots"}

_FENCE = re.compile(r"^(```|~~~)")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_PATHLIKE = re.compile(r"^[\w.<>*/-]+$")
_STRIP = "\"'“”‘’,;:()[]{}"
# A short mention with one of these endings names a source file somewhere in the tree.
SOURCE_SUFFIXES = (".py", ".js", ".css", ".sh", ".toml", ".ini")
SKIPPED_FOLDERS = {".git", ".venv", "node_modules", "__pycache__", "data"}


def doc_files(root: Path = ROOT) -> list[Path]:
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]


def mentions(text: str) -> list[tuple[int, str, bool]]:
    """(line, word, is_link) for every word of a code span or fenced block and every link target."""
    found: list[tuple[int, str, bool]] = []
    fenced = False
    for n, line in enumerate(text.splitlines(), 1):
        if _FENCE.match(line.strip()):
            fenced = not fenced
            continue
        if fenced:
            found += [(n, word, False) for word in line.split()]
            continue
        for span in _CODE_SPAN.finditer(line):
            found += [(n, word, False) for word in span.group(2).split()]
        # A link written inside a code span is an example, not a link.
        found += [(n, target, True) for target in _LINK.findall(_CODE_SPAN.sub("", line))]
    return found


def repo_path(word: str, is_link: bool, doc_dir: Path, root: Path = ROOT) -> Path | None:
    """The repository path a mention names, or None when it does not name one (a URL, an API
    route, a data-folder file, a command flag)."""
    word = word.strip(_STRIP).rstrip(".")
    word = re.split(r"[#?]", word, maxsplit=1)[0]
    if is_link:
        if not word or re.match(r"^[a-z]+:", word):
            return None
        return (doc_dir / word).resolve()
    if not word or word.startswith("/") or not _PATHLIKE.match(word):
        return None
    if word in TOP_LEVEL_FILES:
        return root / word
    first, _, rest = word.partition("/")
    if not rest.strip("/"):
        return None
    if first in ROOT_FOLDERS:
        return root / word
    if first in SRC_PACKAGES:
        return root / "src" / word
    return None


def short_source_mention(word: str) -> str | None:
    """A mention like ``snapshot.py`` or ``ui/js/ask.js``: a source file named by its last parts."""
    word = word.strip(_STRIP).rstrip(".")
    if not _PATHLIKE.match(word) or "<" in word or "*" in word or word.startswith("/"):
        return None
    return word if word.endswith(SOURCE_SUFFIXES) else None


def tree_files(root: Path) -> set[str]:
    found = set()
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = [d for d in subfolders if d not in SKIPPED_FOLDERS]
        base = Path(folder).relative_to(root)
        found |= {(base / name).as_posix() for name in names}
    return found


def exists(path: Path, root: Path = ROOT) -> bool:
    relative = path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)
    if relative.rstrip("/") in GENERATED:
        return True
    if "<" in relative or "*" in relative:
        pattern = re.sub(r"<[^>]*>", "*", relative)
        return any(root.glob(pattern.rstrip("/")))
    return path.exists() or path.is_symlink()


def missing_paths(root: Path = ROOT) -> list[str]:
    wrong = []
    files: set[str] | None = None
    for doc in doc_files(root):
        if not doc.exists():
            continue
        for line, word, is_link in mentions(doc.read_text(encoding="utf-8")):
            path = repo_path(word, is_link, doc.parent, root)
            if path is not None:
                if not exists(path, root):
                    wrong.append(f"{doc.relative_to(root)}:{line}: {word}")
                continue
            short = None if is_link else short_source_mention(word)
            if short is not None:
                files = tree_files(root) if files is None else files
                if not any(f == short or f.endswith("/" + short) for f in files):
                    wrong.append(f"{doc.relative_to(root)}:{line}: {word}")
    return wrong


def test_every_path_the_docs_name_exists() -> None:
    wrong = missing_paths()
    assert not wrong, "the docs name paths that are not in the tree (fix or remove them):\n" + \
        "\n".join(wrong)


def test_the_docs_exist_and_the_readme_stays_short() -> None:
    docs = doc_files()
    assert len(docs) > 1 and all(d.exists() for d in docs)
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 250


def test_the_scan_catches_a_made_up_path(tmp_path: Path) -> None:
    # The check must be able to fail: a tree with one real file, docs naming it and made-up ones.
    (tmp_path / "src" / "core").mkdir(parents=True)
    (tmp_path / "src" / "core" / "real.py").write_text("")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "real.md").write_text("")
    (tmp_path / "README.md").write_text(
        "See `src/core/real.py` and `core/real.py`, `core/<name>.py`, [a page](docs/real.md).\n"
        "Gone: `src/core/gone.py`, `server/runtime/gone.py` and [a page](docs/gone.md#part).\n"
        "Not repo paths: `/api/graph`, `chats/<id>.json`, `--no-window`, [site](https://x.org).\n"
        "Short: `real.py`, `core/real.py`, `gone.py`, `lib/real.py`, `ui/js/gone.js`.\n"
        "```\nbench/gone.py --flag\n```\n"
    )
    (tmp_path / "docs" / "page.md").write_text("Back to [the README](../README.md), `core/nope/`.\n")
    assert missing_paths(tmp_path) == [
        "README.md:2: src/core/gone.py",
        "README.md:2: server/runtime/gone.py",
        "README.md:2: docs/gone.md#part",
        "README.md:4: gone.py",
        "README.md:4: lib/real.py",
        "README.md:4: ui/js/gone.js",
        "README.md:6: bench/gone.py",
        "docs/page.md:1: core/nope/",
    ]
