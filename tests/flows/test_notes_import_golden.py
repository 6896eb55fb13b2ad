"""The model-free import's graph is pinned: the real-shaped vault and a markup-heavy one import
to exactly the nodes (ids, texts, evidence) and edges recorded here, so a speed-up of parsing,
prose rules or extraction can be proved not to change a single result.

An intended change of the graph (a new prose rule, a new topic rule) changes these digests on
purpose: check the new graph by hand (``canonical`` below), then record its digest here.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

from tests.support.notes import canonical, importer
from tests.support.real_vault import make_real_vault

# Re-pinned for issue 28 (one node per note; headings are sections, not nodes).
REAL_173 = "eb1dae91f72158a699562c7f131fd464cbfe6af03b68db951c016f527ba968b9"
MARKUP_60 = "17b3690097009706e6a77ea55503f05daa0af22f831687be3abd08f6d1f38eca"

# Every inline rule of the prose text, alone and mixed; structures markdown-it tells apart.
PIECES = [
    "**bold words**", "__strong one__", "*italic bit*", "_under score_", "snake_case_name",
    "`code span`", "``double `tick` code``", "~~struck~~", "==marked==", "#tag/sub", "#123",
    "[^1]", "<span class=x>html</span>", "[a link](http://x.y/z)", "![img](a.png)",
    "![[Embed.png]]", "[[Note 1]]", "[[Note 2|Alias **two**]]", "[[Note 3#Heading]]",
    "[[#Local]]", "[[F1/Note 5.md]]", "[[Note 5#^blk]]", "%%hidden comment%%", "e.g. this",
    "i.e. that", "Dr. Who", "J. R. Tolkien", "3.14 pi", "a ! b", "why ?", "ok .", "a*b*c",
    "2*3 = 6", "x_y_z", "~~", "==", "<", ">", "[x]", "[ ]", "\\| pipe", "100%",
    "(see **this**)", '"Quoted." Then', "end. Next", "stop! Go", "ask? Yes", "http://a.b/c_d_e",
]
WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "theta", "lambda", "sigma", "omega",
         "graph", "note"]


def _sentence(rng: random.Random) -> str:
    parts = [rng.choice(WORDS) for _ in range(rng.randint(0, 6))]
    for _ in range(rng.randint(0, 4)):
        parts.insert(rng.randint(0, len(parts)), rng.choice(PIECES))
    text = " ".join(parts)
    end = rng.choice([".", "!", "?", "", " ^abc-1"])
    return text[:1].upper() + text[1:] + end if text else "Word."


def _block(rng: random.Random) -> list[str]:
    s = _sentence
    return [
        [" ".join(s(rng) for _ in range(3)), s(rng), ""],
        [f"- {s(rng)}", f"  - [ ] {s(rng)}", f"- [x] {s(rng)}", ""],
        [f"1. {s(rng)}", f"2) {s(rng)} {s(rng)}", ""],
        [f"> [!note] {s(rng)}", f"> {s(rng)}", ">", f"> > {s(rng)}", ""],
        ["```", s(rng), "```", ""],
        ["| a | b |", "|---|---|", f"| {s(rng)} | x |", ""],
        [s(rng), "===", "", s(rng), "---", ""],
    ][rng.randint(0, 6)]


def make_markup_vault(root: Path, notes: int = 60, seed: int = 7) -> Path:
    rng = random.Random(seed)
    (root / ".obsidian").mkdir(parents=True, exist_ok=True)
    for i in range(notes):
        lines = ["---", f"tags: [t{i}]", f"aliases: [A {i}]", "---"] if i % 3 == 0 else []
        for section in range(rng.randint(1, 5)):
            if section or i % 2:
                lines.append("#" * rng.randint(1, 4) + " " + _sentence(rng).rstrip(".!?"))
            for _ in range(rng.randint(1, 4)):
                lines += _block(rng)
        path = root / f"F{i % 4}" / f"Note {i}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines))
    return root


def _digest(data: Path) -> str:
    graph = canonical(data)
    return hashlib.sha256(json.dumps(graph, sort_keys=True).encode()).hexdigest()


async def test_the_real_shaped_vault_imports_to_the_pinned_graph(tmp_path: Path):
    vault = make_real_vault(tmp_path / "Vault", notes=173)
    report = await importer(tmp_path / "data").run(str(vault.root), embed=False)
    # Was (173, 950, 1465): the 777 heading nodes are sections now, their hierarchy edges are
    # gone and links into a heading join the notes' pair; the 514 edges left are the notes'
    # links, one per linked pair.
    assert (report.imported, report.propositions, report.edges) == (173, 173, 514)
    assert _digest(tmp_path / "data") == REAL_173


async def test_a_markup_heavy_vault_imports_to_the_pinned_graph(tmp_path: Path):
    vault = make_markup_vault(tmp_path / "Vault")
    report = await importer(tmp_path / "data").run(str(vault), embed=False)
    # Was (60, 332, 408): 272 heading nodes and their hierarchy edges are gone.
    assert (report.imported, report.propositions, report.edges) == (60, 60, 136)
    assert _digest(tmp_path / "data") == MARKUP_60
