"""Restoring placeholders in streamed text, whatever way the deltas split them."""

from __future__ import annotations

from studyhall.core.guardrails.scrubber import Placeholders, StreamRestorer, scrub


def _restored(deltas: list[str]) -> tuple[str, list[str]]:
    scope = Placeholders()
    scrub("mail me@example.com or call +1-555-201-3344", scope)
    restorer = StreamRestorer(scope)
    shown = [restorer.feed(d) for d in deltas] + [restorer.flush()]
    return "".join(shown), shown


def test_a_placeholder_split_across_deltas_is_restored_whole() -> None:
    text, shown = _restored(["Write to <EMA", "IL_", "1> or <", "PHONE_1", ">."])
    assert text == "Write to me@example.com or +1-555-201-3344."
    assert not any("<EMA" in s or "IL_1" in s for s in shown)


def test_every_split_point_gives_the_same_text() -> None:
    whole = "a <EMAIL_1>, b <PHONE_1> c"
    for cut in range(len(whole) + 1):
        text, _ = _restored([whole[:cut], whole[cut:]])
        assert text == "a me@example.com, b +1-555-201-3344 c"


def test_text_that_only_looks_like_the_start_of_a_placeholder_is_not_held() -> None:
    _, shown = _restored(["x < y and <b>bold", " and <EMAIL_9> unknown"])
    assert shown[0] == "x < y and <b>bold"
    assert "".join(shown) == "x < y and <b>bold and <EMAIL_9> unknown"
