"""Course-material test helpers: tiny PDFs, VTT/SRT text, a word-overlap reranker."""

from __future__ import annotations

import re
from collections.abc import Sequence

from studyhall.core.contracts.search import Chunk, Reranked


def pdf_bytes(pages: list[str]) -> bytes:
    """A minimal text PDF, one string per page (pypdf extracts it back)."""
    bodies: list[bytes] = [b"<< /Type /Catalog /Pages 2 0 R >>", b""]
    kids = []
    font_id = 3 + 2 * len(pages)
    for n, text in enumerate(pages):
        esc = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        stream = f"BT /F1 11 Tf 50 780 Td ({esc}) Tj ET".encode("latin-1")
        page_id, content_id = 3 + 2 * n, 4 + 2 * n
        kids.append(page_id)
        bodies.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 842] /Contents {content_id} 0 R "
                      f"/Resources << /Font << /F1 {font_id} 0 R >> >> >>".encode())
        bodies.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    bodies[1] = f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in kids)}] /Count {len(kids)} >>".encode()
    bodies.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(bodies, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(bodies) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += f"trailer\n<< /Size {len(bodies) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def vtt(cues: Sequence[tuple[float, float, str]], srt: bool = False) -> str:
    def stamp(s: float) -> str:
        ms = round(s * 1000)
        text = f"{ms // 3_600_000:02d}:{ms // 60_000 % 60:02d}:{ms // 1000 % 60:02d}.{ms % 1000:03d}"
        return text.replace(".", ",") if srt else text

    lines = [] if srt else ["WEBVTT", ""]
    for n, (a, b, text) in enumerate(cues, start=1):
        lines += ([str(n)] if srt else []) + [f"{stamp(a)} --> {stamp(b)}", text, ""]
    return "\n".join(lines)


class OverlapScorer:
    """A score-only reranker for tests: share of the question's longer words in the passage."""

    grades = False

    async def rerank(self, query: str, chunks: Sequence[Chunk]) -> list[Reranked]:
        words = set(re.findall(r"[a-z]{4,}", query.lower()))
        return [Reranked(c.id, len(words & set(re.findall(r"[a-z]+", c.text.lower()))) / (len(words) or 1))
                for c in chunks]
