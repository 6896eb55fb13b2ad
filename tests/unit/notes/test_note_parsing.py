"""Obsidian syntax as Obsidian reads it: every link form, code is never a link, tags, block ids,
frontmatter, and sections with stable anchors."""

from __future__ import annotations

from studyhall.core.library.sources.notes import note_meta, parse_note, split_frontmatter


def links(text: str, path: str = "n.md"):
    return [(l.kind, l.embed, l.target, l.subpath, l.alias) for l in parse_note(path, text).links]


def test_every_wikilink_form_is_read_with_its_target_subpath_and_alias():
    text = (
        "[[Note]] [[Note|shown]] [[Note#Heading]] [[Note#^blk1]] ![[Pic.png]] "
        "[[Folder/Deep Note#H1#H2|alias]] [[#Local heading]] ![[Note#Heading]]"
    )
    assert links(text) == [
        ("wiki", False, "Note", "", None),
        ("wiki", False, "Note", "", "shown"),
        ("wiki", False, "Note", "Heading", None),
        ("wiki", False, "Note", "^blk1", None),
        ("wiki", True, "Pic.png", "", None),
        ("wiki", False, "Folder/Deep Note", "H1#H2", "alias"),
        ("wiki", False, "", "Local heading", None),
        ("wiki", True, "Note", "Heading", None),
    ]


def test_markdown_links_to_local_files_are_links_and_urls_are_not():
    text = (
        '[a](Other%20Note.md) [b](<Spaced Name.md#Sec>) [c](../up/x.md "title") '
        "![img](pic.png) [web](https://example.com) [mail](mailto:a@b.c) [anchor](#here) "
        "[app](obsidian://open?vault=x)"
    )
    assert links(text) == [
        ("markdown", False, "Other Note.md", "", "a"),
        ("markdown", False, "Spaced Name.md", "Sec", "b"),
        ("markdown", False, "../up/x.md", "", "c"),
        ("markdown", True, "pic.png", "", "img"),
        ("markdown", False, "", "here", "anchor"),
    ]


def test_links_inside_code_are_not_links():
    text = "\n".join(  # noqa: FLY002 - one line of the note per item reads better
        [
            "Real [[One]] and `[[inline code]]` and ``[[double `tick` code]]``.",
            "A span `that wraps",
            "[[over two lines]]` is code too.",
            "```python",
            "x = '[[fenced]]'",
            "```",
            "~~~",
            "[[tilde fenced]]",
            "~~~",
            "",
            "    [[indented code]]",
            "",
            "An unclosed `backtick then [[Two]].",
            "",
            r"Escaped \`[[Three]]\` is not code.",
        ]
    )
    assert [t for _, _, t, _, _ in links(text)] == ["One", "Two", "Three"]


def test_an_escaped_alias_pipe_in_a_table_still_splits_the_alias():
    text = "| a | b |\n|---|---|\n| [[Note\\|shown]] | 2 |\n"
    assert links(text) == [("wiki", False, "Note", "", "shown")]


def test_each_link_knows_its_line():
    doc = parse_note("n.md", "---\ntags: x\n---\nfirst [[A]]\n\nthird\n[[B]] here\n")
    assert [(l.target, l.line) for l in doc.links] == [("A", 3), ("B", 6)]


def test_tags_from_the_body_and_frontmatter_never_from_code_links_or_headings():
    text = (
        "---\ntags: [fm, '#hashed']\n---\n# Heading\n"
        "#tag1 and #nested/tag and #2024 and #y2024 and x#no\n"
        "`#code` [[Note#Heading]] http://x.org/#frag\n"
    )
    doc = parse_note("n.md", text, {"tags": ["fm", "#hashed"]})
    assert doc.tags == ("fm", "hashed", "tag1", "nested/tag", "y2024")
    # Metadata is the frontmatter's: a note without a frontmatter block has none.
    assert parse_note("n.md", "#tag1", {"tags": ["fm"]}).tags == ("tag1",)


def test_frontmatter_must_open_on_the_first_line_and_close():
    assert split_frontmatter("---\na: 1\n---\nbody").yaml == "a: 1"
    assert split_frontmatter("---\na: 1\n---\nbody").body_start == 3
    assert split_frontmatter("\n---\na: 1\n---\n").yaml is None
    assert split_frontmatter("---\na: 1\nno end").yaml is None


def test_aliases_and_tags_accept_the_shapes_obsidian_accepts():
    meta = note_meta({"Aliases": "Mito, Powerhouse", "tags": "bio chem, #x", "title": " T "})
    assert meta.aliases == ("Mito", "Powerhouse")
    assert meta.tags == ("bio", "chem", "x")
    assert meta.title == "T"
    assert note_meta({"alias": ["A", 2024, True, None]}).aliases == ("A", "2024")
    assert note_meta({"aliases": {"not": "a list"}}).aliases == ()
    assert note_meta(None).aliases == ()


def test_frontmatter_is_not_parsed_as_body_and_keeps_line_numbers():
    doc = parse_note("n.md", '---\ntags: [a]\nnote: "[[Not a body link]]"\n---\n# T\n')
    assert doc.links == ()
    assert doc.body_start == 4
    assert doc.sections[1].start == 4


def test_block_ids_end_a_line():
    doc = parse_note("n.md", "A fact. ^fact-1\n\nNot ^an id here\n- item ^item2\n")
    assert doc.block_ids == {"fact-1": 0, "item2": 3}


def test_sections_nest_by_heading_level_with_unique_anchors():
    doc = parse_note("Title.md", "intro\n# A\n## B\ntext\n## B\n# C\nSetext\n---\n")
    got = [(s.heading, s.level, s.parent, s.anchor) for s in doc.sections]
    assert got == [
        (None, 0, None, ""),
        ("A", 1, 0, "A"),
        ("B", 2, 1, "A#B"),
        ("B", 2, 1, "A#B~2"),
        ("C", 1, 0, "C"),
        ("Setext", 2, 4, "C#Setext"),
    ]
    assert doc.section_of(3).anchor == "A#B"


def test_title_is_frontmatter_title_else_file_name():
    assert parse_note("dir/My Note.md", "x").title == "My Note"
    assert (
        parse_note("dir/My Note.md", "---\ntitle: Real\n---\nx", {"title": "Real"}).title == "Real"
    )


def test_crlf_and_bom_do_not_leak_into_lines():
    doc = parse_note("n.md", "\ufeff# T\r\nline [[A]]\r\n")
    assert doc.lines[:2] == ("# T", "line [[A]]")
    assert doc.links[0].target == "A"
