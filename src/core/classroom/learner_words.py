"""The learner's own words in a transcript: what they typed — their messages, free-text answers
to open questions, short answers to quiz questions — and never a steer, a tool's result or an
option someone else wrote.

An observation of the learner must quote these verbatim: then no model, and no text in their
imported material, can put words in the learner's mouth.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from studyhall.core.contracts.chat import Message, SteerPart, TextPart, ToolCallPart


def learner_words(messages: Sequence[Message]) -> Iterator[str]:
    """Each piece of text the learner wrote, oldest first."""
    for message in messages:
        if message.role == "user":
            if any(isinstance(p, SteerPart) for p in message.parts):
                continue  # system-authored
            for part in message.parts:
                if isinstance(part, TextPart) and part.text.strip():
                    yield part.text
            continue
        for part in message.parts:
            if isinstance(part, ToolCallPart) and part.state == "output-available":
                yield from _typed_answers(part)


def _typed_answers(part: ToolCallPart) -> Iterator[str]:
    output = part.output
    if not isinstance(output, dict):
        return
    if part.name == "ask_user_question":
        text = output.get("text")
        if isinstance(text, str) and output.get("option") is None:  # typed, not picked
            yield text
    elif part.name == "quiz":
        for result in output.get("results") or ():
            if (isinstance(result, dict) and result.get("kind") == "short"
                    and isinstance(result.get("response"), str)):
                yield result["response"]


def flat(text: str) -> str:
    """Whitespace collapsed: a quote may wrap differently from the message it comes from."""
    return " ".join(text.split())


def said_by_learner(quote: str, messages: Sequence[Message]) -> bool:
    """True when ``quote`` (whitespace aside) is part of something the learner wrote."""
    wanted = flat(quote)
    return bool(wanted) and any(wanted in flat(text) for text in learner_words(messages))
