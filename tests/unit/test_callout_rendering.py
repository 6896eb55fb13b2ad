"""Obsidian callouts through the window's own Markdown (the vendored markdown-it with
``js/callouts.js``), run by node: kinds and their aliases, titles, folding, nested callouts,
Markdown inside, and quotations that are not callouts."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

UI = Path(__file__).resolve().parents[2] / "src" / "server" / "ui"
NODE = shutil.which("node")

SCRIPT = """
import markdownit from "%s";
import { calloutPlugin } from "%s";
const md = markdownit({ html: false }).use(calloutPlugin);
const inputs = JSON.parse(process.argv[1]);
console.log(JSON.stringify(inputs.map((t) => md.render(t))));
"""


def render(*texts: str) -> list[str]:
    if NODE is None:
        pytest.skip("node is not installed")
    code = SCRIPT % ((UI / "vendor" / "markdown-it.js").as_uri(), (UI / "js" / "callouts.js").as_uri())
    done = subprocess.run([NODE, "--input-type=module", "-e", code, json.dumps(texts)],
                          capture_output=True, text=True, timeout=60, check=True)
    return json.loads(done.stdout)


def test_a_titled_callout_is_a_box_with_its_title_and_body():
    [html] = render("> [!note] Where things are\n> The **status bar** shows counts.")
    assert html.startswith('<div class="callout callout-note" data-callout="note" role="note">')
    assert '<p class="callout-title">Where things are</p>' in html
    assert "<p>The <strong>status bar</strong> shows counts.</p>" in html
    assert "[!note]" not in html and "<blockquote>" not in html


def test_no_title_is_the_kind_and_aliases_share_a_colour():
    untitled, alias, unknown = render("> [!WARNING]\n> Careful.", "> [!faq] Why?\n> Because.",
                                      "> [!custom] Mine\n> Text.")
    assert '<p class="callout-title">Warning</p>' in untitled and "callout-warning" in untitled
    assert "callout callout-question" in alias and 'data-callout="faq"' in alias
    assert "callout callout-note" in unknown and 'data-callout="custom"' in unknown


def test_folded_callouts_are_details_closed_or_open():
    closed, opened = render("> [!tip]- Folded\n> Hidden.", "> [!tip]+ Open\n> Shown.")
    assert closed.startswith('<details class="callout callout-tip" data-callout="tip">')
    assert '<summary class="callout-title">Folded</summary>' in closed and closed.rstrip().endswith("</details>")
    assert '<details class="callout callout-tip" data-callout="tip" open>' in opened


def test_nested_callouts_nest_and_a_title_alone_has_no_empty_paragraph():
    [html] = render("> [!warning] Outer\n> Outer text.\n>\n> > [!example] Inner\n> > Inner text.\n\n> [!info] Alone")
    outer, inner = html.index("callout-warning"), html.index("callout-example")
    assert outer < inner < html.index("</div>")
    assert "<p>Inner text.</p>" in html and '<p class="callout-title">Inner</p>' in html
    assert '<p class="callout-title">Alone</p>\n</div>' in html


def test_a_quotation_that_is_not_a_callout_stays_a_quotation_and_titles_are_escaped():
    plain, hostile = render("> Just a quote.\n> [!note] later", "> [!note] <img src=x onerror=alert(1)>\n> x")
    assert plain.startswith("<blockquote>") and "callout" not in plain
    assert "<img" not in hostile and "&lt;img" in hostile
