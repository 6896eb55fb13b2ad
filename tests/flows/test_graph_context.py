"""Graph context: at session start the topic is embedded and the nearest propositions reach the
teacher as a one-shot steer (``steer_ctx_<chat_id>``, kind "context"), delivered exactly once."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from studyhall.core.contracts.chat import SteerPart, TextPart
from studyhall.server.app import build_runtime, build_services
from studyhall.server.runtime.runtime import Runtime

from tests.support.chat_script import scripted
from tests.support.embedder import HashEmbedder, UnloadableEmbedder
from tests.support.notes import make_vault
from tests.support.server import make_config
from tests.support.session_start import context_for, first_turn, opened


async def imported_runtime(tmp_path: Path) -> Runtime:
    services = replace(
        build_services(make_config()), embedder=HashEmbedder(),
        chat_model=scripted(prober=["Hello! What do you know already?", "And more?"]))
    runtime = build_runtime(services)
    await runtime.library.import_here(str(make_vault(tmp_path / "Vault", notes=6)))
    return runtime


async def test_the_nearest_propositions_become_a_context_steer(tmp_path: Path):
    runtime = await imported_runtime(tmp_path)
    chat_id, steer = await context_for(runtime, "the first detail of note 03 atoms")
    assert steer is not None and steer.id == f"steer_ctx_{chat_id}" and steer.role == "user"
    mark = next(p for p in steer.parts if isinstance(p, SteerPart))
    assert (mark.steer_id, mark.kind) == (f"steer_ctx_{chat_id}", "context")
    text = next(p for p in steer.parts if isinstance(p, TextPart)).text
    lines = text.splitlines()
    # Was the sentence's own node, then the heading node of the section that says it; now the
    # note's topic (headings are sections, not nodes: issue 28 item 1).
    assert lines[1] == "- Note 03 [not-tried]"
    assert len(lines) - 1 == len(steer.parts[2].data["nodes"]) <= 12
    assert (await context_for(runtime, "   "))[1] is None


async def test_the_steer_is_claimed_by_the_first_turn_exactly_once(tmp_path: Path):
    runtime = await imported_runtime(tmp_path)
    # (Was "details of atoms", a heading node's text; headings are sections now.)
    chat_id = await opened(runtime, "note 03 atoms")  # the steer is queued meanwhile
    for text in ("Hi", "Go on"):
        await first_turn(runtime, chat_id, text)
    record = runtime.services.chat_store.get(chat_id)
    steers = [m for m in record.messages if m.id == f"steer_ctx_{chat_id}"]
    assert len(steers) == 1
    assert record.messages.index(steers[0]) < 2  # before the learner's first message went out


async def test_an_empty_graph_or_no_embedder_gives_no_steer(tmp_path: Path):
    services = build_services(make_config())
    empty = build_runtime(replace(services, embedder=HashEmbedder()))
    assert (await context_for(empty, "anything"))[1] is None
    unembedded = build_runtime(replace(services, embedder=UnloadableEmbedder()))
    assert (await context_for(unembedded, "anything"))[1] is None
