"""Links resolve the way Obsidian resolves them, and nothing is ever invented."""

from __future__ import annotations

import unicodedata

from studyhall.core.library.sources.note_links import link_report, resolve_links
from studyhall.core.library.sources.notes import VaultIndex, parse_note

FILES = [
    "Index.md",
    "bio/Cell.md",
    "bio/deep/Cell.md",
    "chem/Cell.md",
    "chem/Atom.md",
    "chem/Atom.markdown",
    "notes/v1.2.md",
    "assets/diagram.png",
    "assets/Cell.png",
    "Photosynthesis.md",
]


def index(aliases=None) -> VaultIndex:
    return VaultIndex(FILES, aliases or {})


def target(link: str, source: str = "Index.md", markdown: bool = False) -> str | None:
    return (
        index({"Photosynthesis.md": ["PS", "Light reactions"]})
        .resolve(link, source, markdown=markdown)
        .target
    )


def test_by_file_name_case_insensitive():
    assert target("photosynthesis") == "Photosynthesis.md"
    assert target("PHOTOSYNTHESIS.md") == "Photosynthesis.md"


def test_ambiguous_names_go_to_the_shortest_path():
    # bio/Cell.md and chem/Cell.md tie on depth and length: alphabetical decides, always.
    assert target("Cell") == "bio/Cell.md"
    assert target("Cell", source="chem/Atom.md") == "bio/Cell.md"


def test_a_folder_path_or_suffix_picks_the_exact_file():
    assert target("chem/Cell") == "chem/Cell.md"
    assert target("deep/Cell") == "bio/deep/Cell.md"
    assert target("bio/deep/Cell.md") == "bio/deep/Cell.md"


def test_relative_paths_resolve_from_the_linking_note():
    assert target("../chem/Atom", source="bio/Cell.md") == "chem/Atom.md"
    assert target("./Cell", source="chem/Atom.md") == "chem/Cell.md"


def test_markdown_links_are_relative_first_then_by_path_and_name():
    assert target("Atom.md", source="chem/Cell.md", markdown=True) == "chem/Atom.md"
    assert target("chem/Atom.md", source="bio/Cell.md", markdown=True) == "chem/Atom.md"
    assert (
        target("Photosynthesis.md", source="bio/deep/Cell.md", markdown=True) == "Photosynthesis.md"
    )


def test_a_note_wins_over_an_attachment_of_the_same_stem_and_extensions_are_exact():
    assert target("Cell") == "bio/Cell.md"
    assert target("Cell.png") == "assets/Cell.png"
    assert target("diagram.png") == "assets/diagram.png"
    assert target("v1.2") == "notes/v1.2.md"
    assert target("Atom.markdown") == "chem/Atom.markdown"


def test_aliases_resolve_when_no_file_has_the_name():
    assert target("ps") == "Photosynthesis.md"
    assert target("Light Reactions") == "Photosynthesis.md"


def test_a_file_name_beats_an_alias():
    idx = VaultIndex(["A.md", "B.md"], {"B.md": ["A"]})
    assert idx.resolve("A", "B.md").target == "A.md"


def test_unicode_names_match_across_normalization_forms():
    decomposed = unicodedata.normalize("NFD", "Café.md")
    idx = VaultIndex([decomposed])
    assert idx.resolve("café", "x.md").target == decomposed


def test_missing_targets_are_broken_and_never_invented():
    res = index().resolve("Nowhere", "Index.md")
    assert (res.target, res.how, res.reason) == (None, "broken", "no such note")
    assert index().resolve("bio/Nowhere", "Index.md").reason == "no such file"


def test_paths_that_climb_out_of_the_vault_are_broken():
    res = index().resolve("../../etc/passwd", "bio/Cell.md", markdown=True)
    assert res.target is None and "outside the vault" in (res.reason or "")
    assert index().resolve("../x.md", "Index.md").target is None


def test_heading_and_block_links_resolve_to_the_file_and_self_links_are_not_links():
    doc = parse_note("Index.md", "[[Cell#Membrane]] [[Cell#^blk]] [[#Top]] [[Index]] [[Gone#H]]")
    resolved = resolve_links(doc, index())
    assert [(r.link.raw, r.resolution.target) for r in resolved] == [
        ("[[Cell#Membrane]]", "bio/Cell.md"),
        ("[[Cell#^blk]]", "bio/Cell.md"),
        ("[[Gone#H]]", None),
    ]
    assert link_report(resolved) == (("bio/Cell.md",), ("Gone#H",))


def test_embeds_of_attachments_resolve_and_missing_ones_are_reported():
    doc = parse_note("Index.md", "![[diagram.png]] ![[missing.png]] ![x](assets/Cell.png)")
    links, broken = link_report(resolve_links(doc, index()))
    assert links == ("assets/diagram.png", "assets/Cell.png")
    assert broken == ("missing.png",)
