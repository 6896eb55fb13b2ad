"""Build eval/retrieval/v1: the material folder and questions.jsonl.

    python eval/retrieval/v1/build.py

- ``material/squad-normans/``: the 39 passages of ../../../../shared/eval/retrieval-dev (SQuAD 2.0,
  CC BY-SA 4.0, see README.md), one plain-text file each; its 208 questions with gold = that file.
- ``material/{compilers,runtime,distributed,notes,handouts}/``: course-like material written for
  this set (course_text.py): WebVTT and SRT lectures, a Markdown note, a glossary, a PDF handout.
Gold anchors: ``#t=<seconds>`` of the cue that says the answer, ``#page=N``, ``#heading-slug``.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from course_text import LECTURES, NOTES, PDF_PAGES, QUESTIONS, SRT_LECTURES, TEXTS

DEV = Path("/work/shared/eval/retrieval-dev")
for parent in HERE.parents:  # prefer shared/ beside the checkout
    if (parent.parent / "shared/eval/retrieval-dev").is_dir():
        DEV = parent.parent / "shared/eval/retrieval-dev"
        break
MATERIAL = HERE / "material"
WORDS_PER_SECOND = 2.6


def _stamp(seconds: float, comma: bool) -> str:
    ms = int(round(seconds * 1000))
    h, rem = divmod(ms, 3_600_000)
    m, rem = divmod(rem, 60_000)
    s, ms = divmod(rem, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}{',' if comma else '.'}{ms:03d}"


def timed(sentences: list[str]) -> list[tuple[float, float, str]]:
    t, out = 3.0, []
    for s in sentences:
        dur = max(1.5, len(s.split()) / WORDS_PER_SECOND)
        out.append((t, t + dur, s))
        t += dur + 0.4
    return out


def write_vtt(path: Path, cues: list[tuple[float, float, str]]) -> None:
    lines = ["WEBVTT", ""]
    for a, b, text in cues:
        lines += [f"{_stamp(a, False)} --> {_stamp(b, False)}", text, ""]
    path.write_text("\n".join(lines), "utf-8")


def write_srt(path: Path, cues: list[tuple[float, float, str]]) -> None:
    lines = []
    for n, (a, b, text) in enumerate(cues, start=1):
        lines += [str(n), f"{_stamp(a, True)} --> {_stamp(b, True)}", text, ""]
    path.write_text("\n".join(lines), "utf-8")


def pdf_bytes(pages: list[str]) -> bytes:
    """A minimal text PDF (Helvetica, wrapped lines): enough for pypdf to extract per page."""
    objects: list[bytes] = []
    kids = []
    for n, text in enumerate(pages):
        words, lines, line = text.split(), [], ""
        for w in words:
            if len(line) + len(w) > 80:
                lines.append(line)
                line = ""
            line = f"{line} {w}".strip()
        lines.append(line)
        ops = ["BT", "/F1 11 Tf", "14 TL", "50 780 Td"]
        for ln in lines:
            esc = ln.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            ops.append(f"({esc}) Tj T*")
        ops.append("ET")
        stream = "\n".join(ops).encode("latin-1")
        content_id = 4 + 2 * n
        page_id = 3 + 2 * n
        kids.append(page_id)
        objects.append(b"")  # placeholders, filled below in id order
        objects.append(b"")
        objects[-2] = (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 842] /Contents {content_id} 0 R "
                       f"/Resources << /Font << /F1 {3 + 2 * len(pages)} 0 R >> >> >>").encode()
        objects[-1] = b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream"
    catalog = b"<< /Type /Catalog /Pages 2 0 R >>"
    pages_obj = f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in kids)}] /Count {len(kids)} >>".encode()
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
    ordered = [catalog, pages_obj, *objects, font]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(ordered, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(ordered) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(ordered) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def slug(heading: str) -> str:
    return re.sub(r"\s", "-", re.sub(r"[^\w\- ]+", "", heading.strip().lower()))


def gold_for(path: str, phrase: str, cue_times: dict[str, list[tuple[float, float, str]]]) -> str:
    if path in cue_times:
        for a, _b, text in cue_times[path]:
            if phrase in text:
                return f"{path}#t={int(a)}"
        raise SystemExit(f"phrase {phrase!r} not in {path}")
    if path in PDF_PAGES:
        for n, text in enumerate(PDF_PAGES[path], start=1):
            if phrase in text:
                return f"{path}#page={n}"
        raise SystemExit(f"phrase {phrase!r} not in {path}")
    if path in NOTES:
        heading = None
        for line in NOTES[path].splitlines():
            if line.startswith("#"):
                heading = line.lstrip("#").strip()
            if phrase in line:
                return f"{path}#{slug(heading)}" if heading else path
        raise SystemExit(f"phrase {phrase!r} not in {path}")
    return path


def main() -> None:
    rows = []
    squad = MATERIAL / "squad-normans"
    squad.mkdir(parents=True, exist_ok=True)
    names = {}
    for line in (DEV / "passages.jsonl").read_text("utf-8").splitlines():
        p = json.loads(line)
        title, n = p["pid"].split("#")
        name = f"squad-normans/{title.lower()}-{int(n):02d}.txt"
        names[p["pid"]] = name
        (MATERIAL / name).write_text(p["text"] + "\n", "utf-8")
    for line in (DEV / "questions.jsonl").read_text("utf-8").splitlines():
        q = json.loads(line)
        answerable = not q["is_impossible"]
        # Unanswerable SQuAD questions still name the passage they were written against; the
        # ranking metrics use answerable questions only, so that gold never counts as a hit.
        rows.append({"question": q["question"], "gold": [names[q["gold_pid"]]], "answerable": answerable,
                     "set": "squad-normans"})
    cue_times = {}
    for rel, sentences in LECTURES.items():
        (MATERIAL / rel).parent.mkdir(parents=True, exist_ok=True)
        cue_times[rel] = timed(sentences)
        write_vtt(MATERIAL / rel, cue_times[rel])
    for rel, sentences in SRT_LECTURES.items():
        (MATERIAL / rel).parent.mkdir(parents=True, exist_ok=True)
        cue_times[rel] = timed(sentences)
        write_srt(MATERIAL / rel, cue_times[rel])
    (MATERIAL / "compilers/lecture-01-lexing.url").write_text(
        "[InternetShortcut]\nURL=https://videos.example.edu/compilers/lecture-01\n", "utf-8")
    for rel, text in {**NOTES, **TEXTS}.items():
        (MATERIAL / rel).parent.mkdir(parents=True, exist_ok=True)
        (MATERIAL / rel).write_text(text, "utf-8")
    for rel, pages in PDF_PAGES.items():
        (MATERIAL / rel).parent.mkdir(parents=True, exist_ok=True)
        (MATERIAL / rel).write_bytes(pdf_bytes(pages))
    for question, path, phrase, answerable in QUESTIONS:
        gold = [gold_for(path, phrase, cue_times)] if answerable else []
        rows.append({"question": question, "gold": gold, "answerable": answerable, "set": "course"})
    with open(HERE / "questions.jsonl", "w", encoding="utf-8") as fh:
        fh.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    print(f"{len(rows)} questions, material in {MATERIAL}")


if __name__ == "__main__":
    main()
