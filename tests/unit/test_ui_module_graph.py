"""The window's JavaScript modules import one another without a cycle.

A cycle between ES modules means one of them runs before the other has defined its exports, so
a name can be `undefined` at the moment it is first used: the order then depends on which module
the page loads first. The scan reads the static `import ... from "./x.js"` lines of our own code
(vendored libraries are not ours and are left out).
"""

from __future__ import annotations

import re
from pathlib import Path

import networkx as nx

UI_JS = Path(__file__).resolve().parents[2] / "src" / "server" / "ui" / "js"
_STATIC_IMPORT = re.compile(
    r"""^\s*import\b[^;'"]*?from\s+["'](\.{1,2}/[^"']+\.js)["']""", re.MULTILINE)
_BARE_IMPORT = re.compile(r"""^\s*import\s+["'](\.{1,2}/[^"']+\.js)["']""", re.MULTILINE)


def module_graph(folder: Path) -> nx.DiGraph:
    graph: nx.DiGraph = nx.DiGraph()
    for path in sorted(folder.rglob("*.js")):
        name = path.relative_to(folder).as_posix()
        graph.add_node(name)
        text = path.read_text(encoding="utf-8")
        for target in _STATIC_IMPORT.findall(text) + _BARE_IMPORT.findall(text):
            resolved = (path.parent / target).resolve()
            if resolved.is_relative_to(folder.resolve()):  # vendored files sit outside js/
                graph.add_edge(name, resolved.relative_to(folder.resolve()).as_posix())
    return graph


def test_the_window_modules_have_no_import_cycle() -> None:
    cycles = list(nx.simple_cycles(module_graph(UI_JS)))
    assert cycles == [], f"JS import cycles: {[' -> '.join([*c, c[0]]) for c in cycles]}"


def test_the_cycle_check_sees_a_cycle(tmp_path: Path) -> None:
    (tmp_path / "a.js").write_text('import { b } from "./b.js";\nexport const a = 1;\n')
    (tmp_path / "b.js").write_text('import { a } from "./a.js";\nexport const b = 2;\n')
    (tmp_path / "c.js").write_text('import "./a.js";\n')
    graph = module_graph(tmp_path)
    assert list(nx.simple_cycles(graph)) != []
    assert graph.has_edge("c.js", "a.js")


def test_no_window_module_passes_400_lines() -> None:
    long = {p.name: n for p in UI_JS.rglob("*.js")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 400}
    assert long == {}
