"""Generated documents: pulled out of the model's answer; SVGs parsed and refused when unsafe."""

from __future__ import annotations

import pytest
from studyhall.core.workbench.documents import extract_html, extract_svg
from studyhall.core.workbench.svg_check import SVG_NS, check_svg

PAGE = "<!DOCTYPE html><html><head><title>T</title></head><body>hi</body></html>"
SVG = f'<svg xmlns="{SVG_NS}" viewBox="0 0 10 10"><rect width="5" height="5"/></svg>'


def test_html_is_taken_from_its_fence_and_chatter_dropped() -> None:
    text = f"Here is the demo:\n\n```html\n{PAGE}\n```\nEnjoy!"
    assert extract_html(text) == PAGE
    assert extract_html(PAGE) == PAGE
    assert extract_html(f"```\n{PAGE}\n```") == PAGE
    assert extract_html(f"```html\n{PAGE}") == PAGE  # an unclosed fence still counts


@pytest.mark.parametrize("text", ["Sorry, I can't.", "```js\nconsole.log(1)\n```", ""])
def test_no_html_document_is_a_fixable_problem(text: str) -> None:
    with pytest.raises(ValueError, match="no HTML document"):
        extract_html(text)


def test_a_huge_demo_is_refused() -> None:
    with pytest.raises(ValueError, match="kB"):
        extract_html("<html><body>" + "x" * 500_000 + "</body></html>")


def test_svg_is_cut_from_svg_to_its_end() -> None:
    assert extract_svg(f"Diagram:\n```svg\n<?xml version='1.0'?>\n{SVG}\n```") == SVG
    with pytest.raises(ValueError, match="no SVG"):
        extract_svg("a circle")
    with pytest.raises(ValueError, match="DOCTYPE"):
        extract_svg('<!DOCTYPE svg [<!ENTITY x "y">]>' + SVG)


def test_a_clean_svg_passes() -> None:
    checked = check_svg(SVG)
    assert checked.problems == () and checked.elements == 2


def test_a_missing_namespace_is_added_rather_than_refused() -> None:
    checked = check_svg('<svg viewBox="0 0 10 10"><circle r="3"/></svg>')
    assert checked.problems == ()
    assert checked.svg.startswith(f'<svg xmlns="{SVG_NS}"')


@pytest.mark.parametrize("body, fragment", [
    ("<script>alert(1)</script>", "<script> is not allowed"),
    ("<foreignObject><div>x</div></foreignObject>", "<foreignobject> is not allowed"),
    ('<rect onclick="steal()"/>', "event handler (onclick)"),
    ('<a href="javascript:alert(1)"><text>x</text></a>', "javascript:"),
    ('<image href="https://example.com/cat.png"/>', "outside the document"),
    ('<use href="other.svg#shape"/>', "outside the document"),
    ('<rect style="fill:url(http://evil.example/p.svg#g)"/>', "outside the document"),
    ("<style>@import url(x.css);</style>", "@import"),
    ('<set attributeName="onmouseover" to="x"/>', "animates"),
])
def test_unsafe_or_external_content_is_refused_with_a_reason(body: str, fragment: str) -> None:
    checked = check_svg(f'<svg xmlns="{SVG_NS}">{body}</svg>')
    assert any(fragment in p for p in checked.problems), checked.problems


def test_internal_references_and_inline_images_are_fine() -> None:
    svg = (f'<svg xmlns="{SVG_NS}" xmlns:xlink="http://www.w3.org/1999/xlink">'
           '<defs><marker id="arrow"><path d="M0 0L5 5"/></marker></defs>'
           '<line marker-end="url(#arrow)"/><use xlink:href="#arrow"/>'
           '<image href="data:image/png;base64,iVBORw0KGgo="/></svg>')
    assert check_svg(svg).problems == ()


def test_malformed_xml_says_where() -> None:
    checked = check_svg(f'<svg xmlns="{SVG_NS}"><rect width="5"></svg>')
    assert len(checked.problems) == 1 and "line 1, column" in checked.problems[0]


def test_a_doctype_anywhere_is_refused_before_parsing() -> None:
    bomb = ('<svg xmlns="http://www.w3.org/2000/svg"><!DOCTYPE x [<!ENTITY a "aaaa">]>'
            "<text>&a;</text></svg>")
    assert "DOCTYPE" in check_svg(bomb).problems[0]


def test_the_root_must_be_svg() -> None:
    assert "root element" in check_svg('<html xmlns="http://www.w3.org/1999/xhtml"/>').problems[0]
