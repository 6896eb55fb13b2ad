"""Issue 31 item 5: the extractor cites short listed ids (m1, m2…) mapped back to the real
ones, and an invented id is repaired only when its quote is unique by content in the batch."""

from __future__ import annotations

from datetime import UTC, datetime

from studyhall.adapters.llm.scripted import ScriptedChatModel
from studyhall.core.agents.extractor import ModelExtractor
from studyhall.core.library.extraction.batching import Batch
from studyhall.core.library.extraction.coverage import View
from studyhall.core.library.extraction.evidence import ViewIndex, check_quote

AT = datetime(2026, 1, 1, tzinfo=UTC)


def _view(mid: str, *lines: str) -> View:
    return View(source_id="chat_1", message_id=mid, label="teacher", lines=lines,
                fingerprint=mid, tokens=10, at=AT)


BATCH = Batch("chat_1", (
    _view("msg_4f9a1c2e7b", "BFS explores a graph level by level.", "It uses a queue."),
    _view("msg_0b7d33aa91", "DFS goes deep first.", "It uses a stack."),
))


def _claim(mid: str, quote: str, key: str) -> dict[str, object]:
    return {"key": key, "text": quote, "evidence": [{"message_id": mid, "quote": quote}]}


async def _extract(*claims: dict[str, object]) -> dict[str, str]:
    model = ScriptedChatModel({"extractor": [{"json": {"propositions": list(claims), "edges": []}}]})
    extraction = await ModelExtractor(model, "extract").extract(BATCH)
    prompt = model.requests[0].messages[-1]["content"]
    assert "Message ids you may cite: m1, m2" in prompt
    assert "m1/2 | It uses a queue." in prompt and "msg_4f9a1c2e7b" not in prompt
    return {p.key: p.evidence[0].message_id for p in extraction.output.propositions}


async def test_short_ids_and_their_lines_are_mapped_back() -> None:
    cited = await _extract(_claim("m1", "BFS explores a graph level by level.", "a"),
                           _claim("m2/2", "It uses a stack.", "b"),
                           _claim("[M_2]", "DFS goes deep first.", "c"))
    assert cited == {"a": "msg_4f9a1c2e7b", "b": "msg_0b7d33aa91/2", "c": "msg_0b7d33aa91"}
    index = ViewIndex(BATCH.views)
    assert check_quote(index, cited["b"], "It uses a stack.")[1] is None


async def test_an_invented_id_is_repaired_when_the_quote_is_unique_in_the_batch() -> None:
    cited = await _extract(_claim("m_7", "It uses a queue.", "a"),
                           _claim("msg_made_up", "uses a", "b"))
    assert cited["a"] == "msg_4f9a1c2e7b"  # only the first view says it
    assert cited["b"] == "msg_made_up"  # in both views: not guessed, the merger drops it
    assert check_quote(ViewIndex(BATCH.views), cited["b"], "uses a")[1] is not None


async def test_short_real_ids_are_shown_as_they_are() -> None:
    batch = Batch("c", (_view("m_1", "A derivative measures change."),))
    model = ScriptedChatModel({"extractor": [{"json": {"propositions": [], "edges": []}}]})
    await ModelExtractor(model, "extract").extract(batch)
    prompt = model.requests[0].messages[-1]["content"]
    assert "m_1/1 | A derivative measures change." in prompt and "you may cite" not in prompt
