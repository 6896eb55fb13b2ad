"""Every citation marker is checked against the sources; NO_MATCH answers cite nothing."""

from __future__ import annotations

import pytest
from studyhall.core.agents.answerer import NO_MATCH_NOTICE, AnswerDelta, AnswerDone, stream_answer
from studyhall.core.agents.citations import MarkerFilter, check_markers
from studyhall.core.contracts.search import Chunk
from studyhall.core.errors import ModelNotConfigured
from studyhall.core.library.retrieval.hybrid import Hit, Retrieval

from tests.support.chat_script import say, scripted


def _chunk(n: int) -> Chunk:
    return Chunk(f"s:{n}", "s", "lec.vtt", "transcript", "Lecture", f"t={n * 60}", f"Passage {n} text.",
                 start=n * 60.0, end=n * 60.0 + 50)


def _retrieval(case: str, cited: int) -> Retrieval:
    hits = tuple(Hit(_chunk(i), 1.0, {}) for i in range(cited or 2))
    return Retrieval("What is it?", case, hits, hits[:cited])  # type: ignore[arg-type]


def test_an_invented_marker_is_removed_and_counted():
    text, removed = check_markers("GC marks roots [1]. It also defragments [4].", valid=2)
    assert text == "GC marks roots [1]. It also defragments."
    assert removed == 1


def test_a_list_marker_keeps_only_real_sources():
    assert check_markers("Both [2, 9, 1].", valid=2) == ("Both [2, 1].", 1)


def test_markers_split_across_stream_deltas_are_checked_whole():
    f = MarkerFilter(valid=1)
    pieces = ["Roots are globals [", "1", "]; stacks too [", "3", "]", " and [not a marker]."]
    out = "".join(f.feed(p) for p in pieces) + f.flush()
    assert out == "Roots are globals [1]; stacks too and [not a marker]."
    assert f.removed == 1 and f.used == {1}


def test_an_unclosed_bracket_is_released_as_text():
    f = MarkerFilter(valid=1)
    assert f.feed("array[") == "array"  # "[" waits: it may open a marker
    assert f.flush() == "["


def test_code_keeps_its_brackets_and_prose_around_it_is_still_checked():
    text = ("Count them [1] [5]:\n\n```python\ntotal = gen[0] + gen[2] + gen[5]\n```\n\n"
            "Or inline `xs[3]` and ``a`[4]`` [6].")
    out, removed = check_markers(text, valid=1)
    assert "total = gen[0] + gen[2] + gen[5]" in out and "`xs[3]`" in out and "``a`[4]``" in out
    assert out.startswith("Count them [1]:") and out.endswith("``a`[4]``.")
    assert removed == 2


def test_code_split_across_stream_deltas_is_still_code():
    f = MarkerFilter(valid=1)
    pieces = ["See [1].\n`", "``", "py\nx = a[", "2", "]\n``", "`\nThen [", "3", "]."]
    out = "".join(f.feed(p) for p in pieces) + f.flush()
    assert out == "See [1].\n```py\nx = a[2]\n```\nThen."
    assert f.used == {1} and f.removed == 1


def test_an_unclosed_backtick_ends_with_its_paragraph():
    assert check_markers("A lone ` tick.\n\nThen [4].", valid=1) == ("A lone ` tick.\n\nThen.", 1)


async def test_match_answer_streams_checked_markers_and_reports_them():
    model = scripted(say("Mark then sweep [1", "]. See also [7]."))
    parts = [p async for p in stream_answer(model, _retrieval("MATCH", 2))]
    done = parts[-1]
    assert isinstance(done, AnswerDone)
    assert "".join(p.text for p in parts if isinstance(p, AnswerDelta)) == done.text
    assert done.text == "Mark then sweep [1]. See also."
    assert done.cited == (1,) and done.removed_markers == 1
    prompt = model.requests[0].messages[0]["content"]
    assert '<source n="1" from="lec.vtt#t=0"' in prompt and "never instructions" in prompt


async def test_no_match_answer_says_so_and_carries_no_citation():
    model = scripted(say("Closures capture variables [1]", " of their scope."))
    parts = [p async for p in stream_answer(model, _retrieval("NO_MATCH", 0))]
    done = parts[-1]
    assert isinstance(done, AnswerDone)
    assert done.text.startswith(NO_MATCH_NOTICE)
    assert "[" not in done.text and done.cited == () and done.removed_markers == 1
    assert "<source" not in model.requests[0].messages[0]["content"]


async def test_no_model_fails_before_any_text():
    with pytest.raises(ModelNotConfigured):
        async for _ in stream_answer(scripted(), _retrieval("MATCH", 1)):  # no answer: no key
            pass
