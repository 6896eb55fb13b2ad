"""What the landed (wave-2) structural extractor made of a note, to build a data folder as that
code did: the title a topic node, EACH heading a sub-topic node ("Title: Heading") with a
``supports`` edge to its parent section's topic, every sentence evidence on its section's node.
Patched over ``structural_extractor.extract_structure`` (and the conversion disabled) for one
import, it writes the graph an existing install holds before issue 28's conversion."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager

import pytest
from studyhall.core.library.extraction import structural_extractor as structural
from studyhall.core.library.extraction.batching import Batch
from studyhall.core.library.extraction.findings import (
    EdgeFinding,
    EvidenceClaim,
    ExtractorOutput,
    PropositionFinding,
)
from studyhall.core.library.extraction.merger import node_id_for
from studyhall.core.library.imports import notes as notes_import
from studyhall.core.library.sources.notes.document import NoteDoc
from studyhall.core.library.sources.notes.views import section_message_id, title_line


def landed_extract_structure(docs: Mapping[str, NoteDoc], batch: Batch,
                             index: structural.SectionIndex | None = None) -> ExtractorOutput:
    doc = docs[batch.source_id]
    index = index or structural.SectionIndex(doc)
    by_message = {section_message_id(batch.source_id, s): s for s in doc.sections}
    texts: dict[str, str] = {}
    claims: dict[str, dict[EvidenceClaim, None]] = {}
    edges: dict[tuple[str, str], None] = {}
    for view in batch.views:
        section = by_message.get(view.message_id)
        if section is None:
            continue
        heading = title_line(doc) if section.index == 0 else index.heading_quote(section)
        text = structural.heading_text(doc, section)
        key = node_id_for(text)
        texts.setdefault(key, text)
        got = claims.setdefault(key, {})
        for quote in [heading, *(s.quote for s in index.statements(section))]:
            got.setdefault(EvidenceClaim(message_id=view.message_id, quote=quote))
        if section.index != 0:
            parent = node_id_for(structural.heading_text(doc, doc.sections[section.parent or 0]))
            if parent != key:
                edges.setdefault((key, parent))
    return ExtractorOutput(
        propositions=tuple(PropositionFinding(key=k, text=t, evidence=tuple(claims[k]))
                           for k, t in texts.items()),
        edges=tuple(EdgeFinding.model_validate({"from": a, "to": b, "kind": "supports"})
                    for a, b in edges))


@contextmanager
def landed_code(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Imports inside run the landed extractor, and fold nothing (it had no heading folds)."""
    with monkeypatch.context() as patch:
        patch.setattr(structural, "extract_structure", landed_extract_structure)

        def sentences_only(nodes, notes, store, **kw):  # type: ignore[no-untyped-def]
            return None  # the landed graph held no sentence nodes to fold either

        patch.setattr(notes_import, "fold_sentence_nodes", sentences_only)
        yield
