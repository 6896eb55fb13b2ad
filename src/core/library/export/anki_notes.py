"""The Anki notes of an export: a session's node gives one — front (its review prompt: a cloze
or a recall prompt, as in ``learner/prompts.py``), back (its text and an evidence quote); a
topic (one per note) gives one per card of the model-free deck (``learner/deck.py``: plain
text, no raw wikilinks or Markdown), and none when it has no card worth reviewing. Each has a
source link and tags from its cluster and sources. ``key`` is what the package's stable GUID is
derived from: the node id for a node's first card (so decks exported before topics had several
cards update in place), the node id and the card's statement for the others — so a re-export
of unchanged notes updates the learner's notes instead of adding new ones."""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from studyhall.core.library.export.anki_html import field_html
from studyhall.core.library.graph.view import GraphSnapshot, SnapshotNode
from studyhall.core.library.learner.deck import Deck, DeckCard
from studyhall.core.library.learner.prompts import TermWeights, review_prompt
from studyhall.core.library.learner.statements import card_text

ROOT_TAG = "studyhall"
_UNSAFE_TAG = re.compile(r"[\s\"]+")  # Anki splits tags on whitespace; quotes confuse search


class SourceRef(NamedTuple):
    """How a source is shown: its title, and a link to open it (None: no local file)."""

    title: str
    href: str | None = None


class AnkiNote(NamedTuple):
    key: str  # the node id (a topic's later cards: node id, "\x1f", the card's statement)
    front: str  # HTML
    back: str  # HTML
    source: str  # HTML: links to the sources the node rests on
    tags: tuple[str, ...]
    suspended: bool = False  # out of review here: its cards arrive suspended in Anki


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


def _tags(node: SnapshotNode, cluster: str | None,
          sources: Mapping[str, SourceRef]) -> tuple[str, ...]:
    tags = [ROOT_TAG]
    if cluster:
        tags.append(tag("cluster", cluster))
    tags += [tag("source", sources.get(s, SourceRef(s)).title) for s in node.sources]
    return tuple(dict.fromkeys(tags))


def anki_note(node: SnapshotNode, weights: TermWeights, cluster: str | None,
              sources: Mapping[str, SourceRef]) -> AnkiNote:
    prompt = review_prompt(node.text, weights)
    back = [f"<b>{field_html(prompt.answer)}</b><hr>" if prompt.kind == "cloze" else "",
            field_html(card_text(node.text))]
    quote = _quote(node)
    if quote is not None:
        back.append(f"<blockquote>{field_html(card_text(quote))}</blockquote>")
    return AnkiNote(node.id, field_html(prompt.prompt), "".join(back),
                    _source_html(node, sources), _tags(node, cluster, sources))


def card_note(card: DeckCard, first: bool, node: SnapshotNode, cluster: str | None,
              sources: Mapping[str, SourceRef]) -> AnkiNote:
    """One card of a topic: its prompt under the topic's name, the answer and the statement."""
    prompt = card.prompt
    front = f'<div class="topic">{html.escape(node.text)}</div>{field_html(prompt.prompt)}'
    back = ([f"<b>{field_html(prompt.answer)}</b><hr>" if prompt.kind == "cloze" else "",
             field_html(prompt.evidence or prompt.answer)])
    key = node.id if first else f"{node.id}\x1f{card.key}"
    return AnkiNote(key, front, "".join(back), _source_html(node, sources),
                    _tags(node, cluster, sources))


def anki_notes(snapshot: GraphSnapshot, nodes: Sequence[SnapshotNode],
               sources: Mapping[str, SourceRef], deck: Deck | None = None) -> list[AnkiNote]:
    """The notes for ``nodes``; the cloze term is chosen against the whole graph's texts, so a
    node's card is the same whatever the scope."""
    weights = TermWeights(n.text for n in snapshot.nodes)
    deck = deck if deck is not None else Deck(snapshot.nodes)
    cluster_of = {nid: (c.label or c.id) for c in snapshot.clusters for nid in c.node_ids}
    out: list[AnkiNote] = []
    for n in nodes:
        if not deck.is_topic(n.id):
            out.append(anki_note(n, weights, cluster_of.get(n.id), sources))
            continue
        out += [card_note(c, i == 0, n, cluster_of.get(n.id), sources)
                for i, c in enumerate(deck.cards(n.id))]
    return out
