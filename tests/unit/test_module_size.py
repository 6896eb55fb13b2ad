"""No module of the app is over 400 lines, Python or JavaScript (issue 26): a file that grows
past it holds more than one concept and is split. Vendored libraries are not ours to split."""

from __future__ import annotations

from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
MAX_LINES = 400


def test_no_module_is_over_400_lines() -> None:
    modules = [p for p in (*SRC.rglob("*.py"), *SRC.rglob("*.js")) if "vendor" not in p.parts]
    assert len(modules) > 100  # the tree was found
    over = {str(p.relative_to(SRC)): n for p in modules
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert over == {}, f"split these modules (lines): {over}"
