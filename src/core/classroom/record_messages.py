"""The persisted chat record -> OpenAI-style provider messages (what a model is shown).

Rules that keep every provider happy and the model honest:
- data parts are UI-only and dropped; a steer is a user message carrying its text;
- an assistant message becomes one provider message per *step* (text, then the tool calls
  of that step, then one ``tool`` message per call);
- every tool call is answered: a call with no result (crash, stopped turn) gets a synthesized
  "interrupted" result, and a client question the learner never answered gets an
  "unanswered" result — no provider ever sees an unanswered tool call.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from studyhall.core.contracts.chat import DataPart, Message, SteerPart, TextPart, ToolCallPart
from studyhall.core.contracts.models import AS_WRITTEN_KEY, AS_WRITTEN_PART, ProviderMessage

# Tools the learner answers (the call waits in the record until they do).
CLIENT_TOOL_NAMES = frozenset({"quiz", "ask_user_question", "plan_init"})

INTERRUPTED_RESULT: dict[str, str] = {
    "status": "interrupted",
    "note": (
        "This call was interrupted before it produced a result (the turn was stopped or the "
        "app closed). Call the tool again if it is still needed."
    ),
}
UNANSWERED_RESULT: dict[str, str] = {
    "status": "unanswered",
    "note": "The learner did not answer this; they continued the conversation instead.",
}


def to_provider_messages(messages: Iterable[Message]) -> list[ProviderMessage]:
    """Convert a transcript (oldest first) into provider messages, without a system prompt."""
    out: list[ProviderMessage] = []
    for message in messages:
        if message.role == "user":
            user = _user_message(message)
            if user is not None:
                out.append(user)
        else:
            out.extend(_assistant_messages(message))
    return out


def tool_result_content(part: ToolCallPart) -> str:
    """The text a model sees as the result of ``part`` (synthesized when there is none)."""
    if part.state == "output-available":
        return _dump(part.output)
    if part.state == "output-error":
        return _dump({"status": "error", "error": part.error or "The tool call failed."})
    if part.state == "input-available" and part.name in CLIENT_TOOL_NAMES:
        return _dump(UNANSWERED_RESULT)
    return _dump(INTERRUPTED_RESULT)


def _user_message(message: Message) -> ProviderMessage | None:
    texts = [p.text for p in message.parts if isinstance(p, TextPart) and p.text]
    if not texts:
        return None  # a data-only message has nothing for the model
    content = "\n\n".join(texts)
    steer = next((p for p in message.parts if isinstance(p, SteerPart)), None)
    if steer is not None:
        # Steers are system-authored; say so, so the model does not answer them as the learner.
        content = f"[Studyhall note — {steer.kind}, not written by the learner]\n{content}"
    if any(isinstance(p, DataPart) and p.name == AS_WRITTEN_PART for p in message.parts):
        # Sent as written: the guardrails leave it unscrubbed and drop the mark.
        return {"role": "user", "content": content, AS_WRITTEN_KEY: True}
    return {"role": "user", "content": content}


def _assistant_messages(message: Message) -> list[ProviderMessage]:
    out: list[ProviderMessage] = []
    texts: list[str] = []
    calls: list[ToolCallPart] = []

    def flush() -> None:
        if not texts and not calls:
            return
        step: ProviderMessage = {"role": "assistant", "content": "".join(texts) or None}
        if calls:
            step["tool_calls"] = [_tool_call(c) for c in calls]
        out.append(step)
        out.extend(
            {"role": "tool", "tool_call_id": c.tool_call_id, "content": tool_result_content(c)}
            for c in calls
        )
        texts.clear()
        calls.clear()

    for part in message.parts:
        if isinstance(part, TextPart):
            if calls:  # text after tool calls starts the next step
                flush()
            if part.text:
                texts.append(part.text)
        elif isinstance(part, ToolCallPart):
            calls.append(part)
        # steer and data parts on an assistant message are UI-only
    flush()
    return out


def _tool_call(part: ToolCallPart) -> dict[str, Any]:
    return {
        "id": part.tool_call_id,
        "type": "function",
        "function": {"name": part.name, "arguments": _dump(part.input)},
    }


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
