"""The teacher's opening context names a live misconception pattern on the session's topics in
one short line ("Misconception on “…”: You often confuse “P(B|A)” and “P(A|B)”: 2 times"), and
says nothing of one wrong answer alone."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from studyhall.adapters.fakes import FixedClock
from studyhall.core.contracts.chat import TextPart
from studyhall.server.app import build_runtime, build_services

from tests.support.embedder import HashEmbedder
from tests.support.mixups import LINE, NODE, TEXT, seed_mixups
from tests.support.server import make_config
from tests.support.session_start import context_for

NOW = datetime(2025, 6, 2, 12, 0, tzinfo=UTC)


def runtime_with(misses: int):
    services = replace(build_services(make_config()), embedder=HashEmbedder(),
                       clock=FixedClock(NOW))
    seed_mixups(services, NOW, misses)
    return build_runtime(services)


async def test_the_context_carries_a_line_per_live_pattern():
    _, steer = await context_for(runtime_with(2), "conditional probability P(A|B)")
    assert steer is not None
    text = next(p for p in steer.parts if isinstance(p, TextPart)).text
    line = f"Misconception on “{TEXT[:60].rsplit(' ', 1)[0]}…” ({NODE}): {LINE}"
    assert f"{line} — address it before moving on." in text.splitlines()
    data = steer.parts[2].data
    assert [(m["node_id"], m["times"]) for m in data["misconceptions"]] == [(NODE, 2)]


async def test_one_wrong_answer_is_not_named():
    _, steer = await context_for(runtime_with(1), "conditional probability P(A|B)")
    assert steer is not None
    text = next(p for p in steer.parts if isinstance(p, TextPart)).text
    assert "Misconception on" not in text
    assert steer.parts[2].data["misconceptions"] == []
