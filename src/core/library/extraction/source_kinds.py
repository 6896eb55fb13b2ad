"""The kinds of source the extraction pipeline reads: each one's batching and judges.

- a chat transcript: token-budgeted batches, the model extractor and auditor, a run per batch,
  each finding left floating attached to the topic it is about, or to the session's topic;
- notes with a model: the same stages, with the notes prompt in the extractor, and the note's
  topics (title, headings) made alongside so each proposition hangs under one;
- notes without a model: a whole note per batch through the structural extractor, every
  finding kept for the merger's checks, many notes planned into one group run (few syncs);
- the links between notes: link views a fixed number per batch, edges made from the links.
"""

from __future__ import annotations

from collections.abc import Sequence

from studyhall.core.library.extraction.batching import Batch, batches_of, make_batches, whole_source
from studyhall.core.library.extraction.coverage import View
from studyhall.core.library.extraction.finding_placement import (
    EmbeddingLikeness,
    Likeness,
    Session,
    WordLikeness,
)
from studyhall.core.library.extraction.findings import Auditor, Extractor, KeepAllAuditor
from studyhall.core.library.extraction.link_extractor import LinkExtractor
from studyhall.core.library.extraction.nearest import NeighbourFinder
from studyhall.core.library.extraction.pipeline import SourceKind
from studyhall.core.library.extraction.structural_extractor import StructuralExtractor
from studyhall.core.library.extraction.topic_anchoring import TopicAnchoring
from studyhall.core.ports.models import Embedder
from studyhall.core.ports.system import OffLoop, in_place


def chat_transcript(extractor: Extractor, auditor: Auditor, session: Session | None = None,
                    embedder: Embedder | None = None,
                    by_meaning: NeighbourFinder | None = None) -> SourceKind:
    """With ``session``, each finding attaches to the topic it is about (embeddings first when
    there is an ``embedder``, else words) or to the session's own topic; ``by_meaning`` adds
    candidate topics worded unlike the finding."""
    likeness: tuple[Likeness, ...] = (WordLikeness(),)
    if embedder is not None:
        likeness = (EmbeddingLikeness(embedder), *likeness)
    return SourceKind("chat", make_batches, extractor, auditor, anchored=True, session=session,
                      likeness=likeness, candidates=by_meaning)


def notes_by_model(
    extractor: Extractor, auditor: Auditor, topics: StructuralExtractor | None = None
) -> SourceKind:
    """With ``topics`` (the parsed notes), propositions hang under their notes' topic nodes."""
    if topics is not None:
        anchoring = TopicAnchoring(topics)
        extractor, auditor = anchoring.extractor(extractor), anchoring.auditor(auditor)
    return SourceKind("notes", make_batches, extractor, auditor)


def notes_by_structure(extractor: StructuralExtractor, off_loop: OffLoop = in_place) -> SourceKind:
    """``off_loop``: where a huge note's verdicts are made (the extractor has its own)."""
    def one_note(views: Sequence[View], _budget: int) -> list[Batch]:
        return whole_source(views)

    return SourceKind("notes-structural", one_note, extractor, KeepAllAuditor(off_loop),
                      grouped=True)


def note_links(extractor: LinkExtractor, views_per_batch: int) -> SourceKind:
    def fixed(views: Sequence[View], _budget: int) -> list[Batch]:
        return batches_of(views, views_per_batch)

    return SourceKind("note-links", fixed, extractor, KeepAllAuditor())
