"""A "Quiz me" quiz built from the passages themselves, with no model: cloze questions on each
passage's most salient term (TF-IDF over the source's passages), with distractors drawn from
the salient terms of OTHER passages. The result is ``quiz`` tool arguments, so the same code
reads and grades it as a quiz a model wrote.

Deterministic: ties are broken by a digest of the quiz id, never by process randomness.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

_WORD = re.compile(r"[A-Za-z][A-Za-z'-]{3,}")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_CODE = re.compile(r"```|[`{}<>|\\=]|\w\(")
MIN_WORDS, MAX_WORDS = 6, 45
CHOICES = 4
# Words that never make a question (function words and a lecturer's fillers).
_STOP_WORDS = """
about above after again against also another around because been before being below between
both could does doing down during each every from further have having here into itself just
more most much other ours over same should some such than that their them then there these
they this those through under until very were what when where which while whom with would your
yours okay right today thing things something really actually basically going gonna want
"""
STOPWORDS = frozenset(_STOP_WORDS.split())


@dataclass(frozen=True)
class ClozeQuestion:
    passage: int  # index into the passages asked about
    args: dict[str, Any]  # one question of the ``quiz`` tool's arguments


def terms(text: str) -> list[str]:
    """The content words of ``text``, lowercased (stopwords and short words left out)."""
    return [w.lower().strip("'-") for w in _WORD.findall(text) if w.lower() not in STOPWORDS]


def _tiebreak(seed: str, key: str) -> int:
    return int.from_bytes(hashlib.sha256(f"{seed}\x00{key}".encode()).digest()[:6], "big")


class Salience:
    """TF-IDF of terms over a source's passages (each passage one document)."""

    def __init__(self, corpus: Sequence[str]) -> None:
        self.docs = [Counter(terms(t)) for t in corpus]
        self.df: Counter[str] = Counter()
        df = self.df
        for doc in self.docs:
            df.update(doc.keys())
        n = len(self.docs) or 1
        self.idf = {w: math.log((1 + n) / (1 + c)) + 1.0 for w, c in df.items()}

    def weight(self, term: str, counts: Counter[str]) -> float:
        return (1 + math.log(counts[term])) * self.idf.get(term, 0.0) if counts[term] else 0.0

    def concept(self, term: str, counts: Counter[str]) -> float:
        """How good an answer ``term`` makes: salient here, met in other passages too (a
        concept of the course rather than a passing verb), and a word of some length."""
        spread = 1.0 if self.df.get(term, 0) >= 2 else 0.6
        return self.weight(term, counts) * spread * min(len(term) / 6, 1.3)

    def top(self, text: str, limit: int) -> list[str]:
        counts = Counter(terms(text))
        return sorted(counts, key=lambda w: (-self.weight(w, counts), w))[:limit]


def prose(text: str, plain: Callable[[str], str]) -> str:
    """A passage as a learner reads it (the passages are Markdown source): code blocks left
    out, each line in plain text (``plain``: without its list, quote or heading marker, links
    as their label, emphasis and embeds removed)."""
    lines, fenced = [], False
    for line in text.splitlines():
        if line.strip().startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced:
            lines.append(plain(line))
    return "\n".join(line for line in lines if line)


def _sentences(text: str) -> list[str]:
    """Prose sentences of a passage (code, tables and lead-ins make poor questions)."""
    out = []
    # A line break ends a sentence too (a list item, a heading, a quote).
    for s in (x for line in text.splitlines() for x in _SENTENCE.split(line)):
        if _CODE.search(s) or s.endswith(":"):  # code, or a lead-in to something else
            continue
        if MIN_WORDS <= len(s.split()) <= MAX_WORDS:
            out.append(s.strip())
    return out


def _blank(sentence: str, term: str) -> tuple[str, str] | None:
    """``sentence`` with ``term`` blanked, and the term as written; None when absent."""
    # A whole word, not the tail of a compound ("fructose-6-phosphate").
    m = re.search(rf"(?<![\w-]){re.escape(term)}(?![\w-])", sentence, flags=re.IGNORECASE)
    if m is None:
        return None
    return sentence[:m.start()] + "_____" + sentence[m.end():], m.group(0)


def cloze_quiz(asked: Sequence[str], corpus: Sequence[str], quiz_id: str,
               count: int = 3, *, plain: Callable[[str], str]) -> list[ClozeQuestion]:
    """Up to ``count`` cloze questions, one per passage of ``asked`` (the passages read so
    far), most salient first; ``corpus`` (every passage of the source, ``asked`` among them)
    weighs the terms and supplies the distractors. Fewer when the text has too few terms.
    Questions, choices and explanations are plain text: ``plain`` is the library's one rule
    for a line of Markdown (given: classroom and library are independent)."""
    asked = [prose(t, plain) for t in asked]
    corpus = [prose(t, plain) for t in corpus]
    salience = Salience(corpus)
    pool: list[tuple[float, int, str, str]] = []  # (score, passage, sentence, term)
    for i, text in enumerate(asked):
        counts = Counter(terms(text))
        for sentence in _sentences(text):
            for term in set(terms(sentence)):
                pool.append((salience.concept(term, counts), i, sentence, term))
    # The most salient candidates first: one question per passage, each with its own answer.
    pool.sort(key=lambda p: (-p[0], _tiebreak(quiz_id, f"{p[1]}:{p[3]}")))
    chosen: dict[int, ClozeQuestion] = {}
    answers: set[str] = set()
    for _score, i, sentence, term in pool:
        if i in chosen or term in answers:
            continue
        blanked = _blank(sentence, term)
        wrong = _distractors(salience, corpus, asked[i], sentence, term, quiz_id)
        if blanked is None or len(wrong) < CHOICES - 1:
            continue
        prompt, written = blanked
        answers.add(term)
        chosen[i] = ClozeQuestion(i, {
            "prompt": f"Fill in the blank: “{prompt}”",
            "choices": [written, *(_like(w, written) for w in wrong)], "correct": [0],
            "explanation": f"The passage says: “{sentence}”",
        })
        if len(chosen) == count:
            break
    questions = [chosen[i] for i in sorted(chosen)]  # in reading order
    return questions


def _distractors(salience: Salience, corpus: Sequence[str], passage: str, sentence: str,
                 answer: str, seed: str) -> list[str]:
    """Salient terms of other passages that are not in this sentence: plausible, not right."""
    here = set(terms(sentence))
    seen: dict[str, float] = {}
    for text in corpus:
        if text == passage:
            continue
        for w in salience.top(text, 4):
            if w != answer and w not in here and not _same_stem(w, answer):
                seen[w] = salience.idf.get(w, 0.0)
    # Concepts of the course first (met in several passages, words of some length): a
    # distractor should be as plausible as the answer, not a stray verb.
    ranked = sorted(seen, key=lambda w: (salience.df.get(w, 0) < 2, len(w) < 5, -seen[w],
                                         _tiebreak(seed, w)))
    return ranked[:CHOICES - 1]


def _same_stem(a: str, b: str) -> bool:
    return a[:5] == b[:5]


def _like(word: str, model: str) -> str:
    """``word`` cased like the right answer, so the case gives nothing away."""
    if model.isupper():
        return word.upper()
    return word.capitalize() if model[:1].isupper() else word
