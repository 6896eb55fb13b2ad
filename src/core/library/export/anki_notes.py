"""The Anki notes of an export: one per node in scope — front (the review prompt: a cloze or
a recall prompt, as in ``learner/prompts.py``), back (the node's text and an evidence quote),
a source link, and tags from its cluster and sources. ``key`` (the node id) is what the
package's stable GUID is derived from, so a re-export updates the learner's notes."""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from studyhall.core.library.export.anki_html import field_html
from studyhall.core.library.graph.view import GraphSnapshot, SnapshotNode
from studyhall.core.library.learner.prompts import TermWeights, review_prompt

ROOT_TAG = "studyhall"
_UNSAFE_TAG = re.compile(r"[\s\"]+")  # Anki splits tags on whitespace; quotes confuse search


class SourceRef(NamedTuple):
    """How a source is shown: its title, and a link to open it (None: no local file)."""

    title: str
    href: str | None = None


class AnkiNote(NamedTuple):
    key: str  # the node id
    front: str  # HTML
    back: str  # HTML
    source: str  # HTML: links to the sources the node rests on
    tags: tuple[str, ...]


def tag(prefix: str, name: str) -> str:
    """An Anki-safe tag: no whitespace or quotes, no empty parts of a ``::`` hierarchy."""
    clean = _UNSAFE_TAG.sub("_", name.strip()).strip("_:") or "untitled"
    return f"{prefix}::{clean}"


def _quote(node: SnapshotNode) -> str | None:
    """The longest evidence quote: the one that says most about why the node holds."""
    quotes = [e.quote.strip() for e in node.evidence if e.quote.strip()]
    return max(quotes, key=len) if quotes else None


def _source_html(node: SnapshotNode, sources: Mapping[str, SourceRef]) -> str:
    parts = []
    for source_id in node.sources:
        ref = sources.get(source_id, SourceRef(source_id))
        title = html.escape(ref.title)
        parts.append(f'<a href="{html.escape(ref.href, quote=True)}">{title}</a>'
                     if ref.href else title)
    return "<br>".join(parts)


def anki_note(node: SnapshotNode, weights: TermWeights, cluster: str | None,
              sources: Mapping[str, SourceRef]) -> AnkiNote:
    prompt = review_prompt(node.text, weights)
    back = [f"<b>{field_html(prompt.answer)}</b><hr>" if prompt.kind == "cloze" else "",
            field_html(node.text)]
    quote = _quote(node)
    if quote is not None:
        back.append(f"<blockquote>{field_html(quote)}</blockquote>")
    tags = [ROOT_TAG]
    if cluster:
        tags.append(tag("cluster", cluster))
    tags += [tag("source", sources.get(s, SourceRef(s)).title) for s in node.sources]
    return AnkiNote(node.id, field_html(prompt.prompt), "".join(back),
                    _source_html(node, sources), tuple(dict.fromkeys(tags)))


def anki_notes(snapshot: GraphSnapshot, nodes: Sequence[SnapshotNode],
               sources: Mapping[str, SourceRef]) -> list[AnkiNote]:
    """The notes for ``nodes``; the cloze term is chosen against the whole graph's texts, so a
    node's card is the same whatever the scope."""
    weights = TermWeights(n.text for n in snapshot.nodes)
    cluster_of = {nid: (c.label or c.id) for c in snapshot.clusters for nid in c.node_ids}
    return [anki_note(n, weights, cluster_of.get(n.id), sources) for n in nodes]
