"""PDFs read with pypdf, text per page (pages keep their 1-based numbers for ``#page=N``)."""

from __future__ import annotations

import io
import logging

from studyhall.adapters.sources._files import (
    MAX_PDF_BYTES,
    ROOT_ONLY,
    PathRule,
    read_bytes,
    title_from_path,
)
from studyhall.core.contracts.material import MaterialFile, Segment, SkippedFile

log = logging.getLogger(__name__)


def read_pdf(root: str, path: str, rule: PathRule = ROOT_ONLY) -> MaterialFile | SkippedFile:
    # Imported here, not at start-up (pypdf costs ~50 ms): only a course import reads PDFs.
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError, PyPdfError

    raw = read_bytes(root, path, MAX_PDF_BYTES, rule)
    if isinstance(raw, SkippedFile):
        return raw
    if raw.data.lstrip()[:5] != b"%PDF-":
        return SkippedFile(path, "not a PDF (no %PDF header)")
    logging.getLogger("pypdf").setLevel(logging.ERROR)  # its warnings are about the file, not us
    try:
        reader = PdfReader(io.BytesIO(raw.data), strict=False)
        if reader.is_encrypted:
            return SkippedFile(path, "an encrypted PDF; save an unlocked copy and import that")
        pages = []
        for number, page in enumerate(reader.pages, start=1):
            text = page.extract_text() or ""
            if text.strip():
                pages.append(Segment(text, page=number))
        meta_title = (reader.metadata.title if reader.metadata else None) or ""
    except (PdfReadError, PyPdfError, ValueError, KeyError, TypeError, AttributeError,
            RecursionError, ZeroDivisionError) as e:
        # pypdf raises many exception types on damaged files; any of them means "unreadable".
        return SkippedFile(path, f"a damaged PDF that cannot be read ({type(e).__name__})")
    if not pages:
        return SkippedFile(path, "a PDF with no text layer (scanned?); run OCR on it first")
    title = meta_title.strip() if isinstance(meta_title, str) and meta_title.strip() else title_from_path(path)
    return MaterialFile(
        path=path, kind="pdf", title=title, segments=tuple(pages),
        size=len(raw.data), content_hash=raw.content_hash,
    )
