"""The tests' own layout: shared helpers live in ``tests/support/`` and nothing else under
``tests/`` is imported by another module (a test module is never a library for other tests)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
SUPPORT = TESTS / "support"
TEST_FILES = ("__init__.py", "conftest.py")


def _modules() -> list[Path]:
    return sorted(p for p in TESTS.rglob("*.py") if "screenshots" not in p.parts)


def _imported(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, target) for every import of a ``tests`` module; relative imports as ``.name``."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                found.append((node.lineno, "." * node.level + (node.module or "")))
            elif node.module and (node.module == "tests" or node.module.startswith("tests.")):
                found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.startswith("tests.")]
    return found


def _allowed(target: str) -> bool:
    return target == "tests.support" or target.startswith("tests.support.")


def test_modules_import_only_tests_support() -> None:
    wrong = [
        f"{path.relative_to(TESTS.parent)}:{line} imports {target}"
        for path in _modules()
        for line, target in _imported(ast.parse(path.read_text(), str(path)))
        if not _allowed(target)
    ]
    assert not wrong, "move shared helpers into tests/support/ and import them from there:\n" + \
        "\n".join(wrong)


def test_every_helper_module_lives_in_tests_support() -> None:
    strays = [
        str(p.relative_to(TESTS.parent)) for p in _modules()
        if SUPPORT not in p.parents and not p.name.startswith("test_") and p.name not in TEST_FILES
    ]
    assert not strays, f"helpers outside tests/support/ (move them there): {strays}"


def test_the_layout_check_sees_a_test_module_import(tmp_path: Path) -> None:
    # The scan itself must catch both spellings of importing another test module.
    source = "from tests.flows.test_jobs import X\nfrom .test_snapshot import prop\nimport tests.unit.x\n"
    targets = [t for _, t in _imported(ast.parse(source))]
    assert targets == ["tests.flows.test_jobs", ".test_snapshot", "tests.unit.x"]
    assert not any(_allowed(t) for t in targets)
    assert _allowed("tests.support.chat_model") and not _allowed("tests.supportive")
