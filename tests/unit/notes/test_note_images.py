"""Which vault file a note's picture names, and the Markdown the reader gets for it."""

from __future__ import annotations

from studyhall.core.library.sources.note_images import embed_image, find_image
from studyhall.core.library.sources.note_reading import link_wikilinks

FILES = ("notes/Interface.md", "attachments/shot.png", "deep/down/shot.png", "notes/local.png",
         "notes/Shot Two.JPG")


def test_an_embed_is_found_by_path_then_beside_the_note_then_by_name_nearest_the_root():
    assert find_image("attachments/shot.png", "notes/Interface.md", FILES) == "attachments/shot.png"
    assert find_image("local.png", "notes/Interface.md", FILES) == "notes/local.png"
    assert find_image("shot.png", "notes/Interface.md", FILES) == "attachments/shot.png"
    assert find_image("shot two.jpg", "notes/Interface.md", FILES) == "notes/Shot Two.JPG"
    assert find_image("../attachments/shot.png", "notes/Interface.md", FILES) == "attachments/shot.png"


def test_a_name_that_is_not_a_picture_in_the_vault_is_not_found():
    assert find_image("Interface.md", "notes/Interface.md", FILES) is None
    assert find_image("nowhere.png", "notes/Interface.md", FILES) is None
    assert find_image("", "notes/Interface.md", FILES) is None


def test_size_anchor_and_caption_of_an_embed():
    url = "/api/sources/note_1/image?path=attachments/shot.png"
    assert embed_image("shot.png|300", "n.md", FILES, "note_1") == f"![shot.png]({url}#w=300)"
    assert embed_image("shot.png|300x120", "n.md", FILES, "note_1") == f"![shot.png]({url}#w=300&h=120)"
    assert embed_image("shot.png#interface", "n.md", FILES, "note_1") == f"![shot.png]({url})"
    assert embed_image("shot.png|The bar", "n.md", FILES, "note_1") == f"![The bar]({url})"
    assert embed_image("Other note", "n.md", FILES, "note_1") is None  # a note embed, not a picture


def test_relative_images_point_at_the_route_and_web_images_are_left_alone():
    text = ("![a](../attachments/shot.png) ![b](local.png) ![c](https://example.com/x.png) "
            "![d](data:image/png;base64,AAAA) ![e](../../outside.png) ![f](<Shot%20Two.JPG>)")
    out = link_wikilinks(text, {}, "note_1", note_path="notes/Interface.md", files=FILES)
    assert "![a](/api/sources/note_1/image?path=attachments/shot.png)" in out
    assert "![b](/api/sources/note_1/image?path=notes/local.png)" in out
    assert "![c](https://example.com/x.png)" in out and "![d](data:image/png;base64,AAAA)" in out
    assert "![e](../../outside.png)" in out  # not in the vault: the window shows it as a link
    assert "![f](/api/sources/note_1/image?path=notes/Shot%20Two.JPG)" in out


def test_pictures_inside_code_fences_stay_code():
    text = "```\n![[shot.png]]\n![a](local.png)\n```\n![[shot.png]]"
    out = link_wikilinks(text, {}, "note_1", note_path="notes/Interface.md", files=FILES).split("\n")
    assert out[1:3] == ["![[shot.png]]", "![a](local.png)"]
    assert out[4].startswith("![shot.png](/api/sources/note_1/image?path=attachments/shot.png")
