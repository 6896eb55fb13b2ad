"""A realistic course folder for the Sources shelf and reader: long notes with headings, lists,
code, wikilinks and embeds; a lecture-length VTT with a short local audio file beside it; a
small PDF."""

from __future__ import annotations

import io
import wave
from pathlib import Path

from tests.support.course import pdf_bytes, vtt

TOPICS = ["cells", "membranes", "enzymes", "respiration", "photosynthesis", "genetics"]

GLYCOLYSIS = """---
tags: [biology, metabolism]
---
# Glycolysis

Glycolysis splits one glucose into two pyruvate and nets **two ATP**. It runs in the cytosol
and needs no oxygen, which is why it is the oldest pathway we know. See [[Krebs cycle]] for
what happens to pyruvate next, and [[Krebs cycle#Where it happens|where the cycle runs]].

## The ten steps

1. Hexokinase phosphorylates glucose (uses one ATP).
2. Phosphoglucose isomerase rearranges it to fructose-6-phosphate.
3. Phosphofructokinase adds a second phosphate — the committed step.
4. Aldolase splits the sugar into two three-carbon halves.

- Investment phase: two ATP spent.
- Payoff phase: four ATP and two NADH made.

![[glycolysis-diagram.png]]

## Energy yield

The net yield is `2 ATP + 2 NADH` per glucose. A quick check in Python:

```python
def net_atp(made: int = 4, spent: int = 2) -> int:
    return made - spent

assert net_atp() == 2
```

> Under anaerobic conditions pyruvate is reduced to lactate to regenerate NAD+.

## Regulation

Phosphofructokinase is inhibited by ATP and citrate and activated by AMP: the cell makes
energy when it is short of it. [[Missing note]] is not imported, so it stays plain text.
"""

KREBS = """# Krebs cycle

The citric acid cycle oxidises acetyl-CoA to carbon dioxide. Back to [[Glycolysis]].

## Where it happens

In the mitochondrial matrix. Each turn makes three NADH, one FADH2 and one GTP.

## Why it matters

It feeds electrons to the electron transport chain, where most ATP is made.
"""


def lecture_cues(minutes: int = 50) -> list[tuple[float, float, str]]:
    """One cue every 6 seconds for ``minutes``; the words at 12:34 are about ATP synthase."""
    cues = []
    for i in range(minutes * 10):
        start = i * 6.0
        topic = TOPICS[(i // 40) % len(TOPICS)]
        text = f"Now, on {topic}: point {i + 1} of the lecture, said slowly so it can be followed."
        if 123 <= i <= 127:
            text = f"ATP synthase turns like a rotor, step {i - 122}: protons flow back through it."
        cues.append((start, start + 6.0, text))
    return cues


def silent_wav(seconds: float = 2.0, rate: int = 8000) -> bytes:
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(1)
        w.setframerate(rate)
        w.writeframes(bytes([128]) * int(seconds * rate))
    return buf.getvalue()


def make_shelf(root: Path) -> Path:
    """The course folder (returned); its files are described in the module docstring."""
    (root / "notes").mkdir(parents=True)
    (root / "lectures").mkdir()
    (root / "notes" / "Glycolysis.md").write_text(GLYCOLYSIS, encoding="utf-8")
    (root / "notes" / "Krebs cycle.md").write_text(KREBS, encoding="utf-8")
    (root / "lectures" / "Lecture 04 - Respiration.vtt").write_text(vtt(lecture_cues()), encoding="utf-8")
    (root / "lectures" / "Lecture 04 - Respiration.m4a").write_bytes(silent_wav())
    (root / "Chapter 5.pdf").write_bytes(pdf_bytes([
        "Chapter 5. Cellular respiration overview and the role of oxygen.",
        "Page two: the electron transport chain pumps protons across the inner membrane.",
        "Page three: ATP synthase uses the proton gradient to make ATP.",
    ]))
    return root
