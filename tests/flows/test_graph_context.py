"""Graph context: at session start the topic is embedded and the nearest propositions reach the
teacher as a one-shot steer (``steer_ctx_<chat_id>``, kind "context"), delivered exactly once."""

from __future__ import annotations

from pathlib import Path

from studyhall.core.contracts.chat import SteerPart, TextPart
from studyhall.server.app import build_services
from studyhall.server.runtime.classroom import turn_runner
from studyhall.server.runtime.graph_context import context_steer, deliver_graph_context
from studyhall.server.runtime.import_runs import notes_importer

from tests.flows.notes_support import HashEmbedder, make_vault
from tests.support.server import make_config
from tests.unit.library.fixtures import ScriptedJson


async def imported_services(tmp_path: Path):
    services = build_services(make_config())
    services.embedder = HashEmbedder()
    services.chat_model = ScriptedJson(prober=["Hello! What do you know already?", "And more?"])
    await notes_importer(services).run(str(make_vault(tmp_path / "Vault", notes=6)))
    return services


async def test_the_nearest_propositions_become_a_context_steer(tmp_path: Path):
    services = await imported_services(tmp_path)
    steer = await context_steer(services, "chat_x", "the first detail of note 03 atoms")
    assert steer is not None and steer.id == "steer_ctx_chat_x" and steer.role == "user"
    mark = next(p for p in steer.parts if isinstance(p, SteerPart))
    assert (mark.steer_id, mark.kind) == ("steer_ctx_chat_x", "context")
    text = next(p for p in steer.parts if isinstance(p, TextPart)).text
    lines = text.splitlines()
    assert lines[1] == "- The first detail of note 03 concerns atoms deeply. [not-tried]"
    assert len(lines) - 1 == len(steer.parts[2].data["nodes"]) <= 12
    assert await context_steer(services, "chat_x", "   ") is None


async def test_the_steer_is_claimed_by_the_first_turn_exactly_once(tmp_path: Path):
    services = await imported_services(tmp_path)
    runner = turn_runner(services)
    chat = runner.create_chat("atoms")
    assert await deliver_graph_context(services, chat.id, "atoms and their first detail")
    assert await deliver_graph_context(services, chat.id, "atoms and their first detail")
    for text in ("Hi", "Go on"):
        turn = await runner.send_message(chat.id, text)
        async for _ in turn.events():
            pass
    record = services.chat_store.get(chat.id)
    steers = [m for m in record.messages if m.id == f"steer_ctx_{chat.id}"]
    assert len(steers) == 1
    assert record.messages.index(steers[0]) < 2  # before the learner's first message went out


async def test_an_empty_graph_or_no_embedder_gives_no_steer(tmp_path: Path):
    services = build_services(make_config())
    services.embedder = HashEmbedder()
    assert await context_steer(services, "c", "anything") is None
    services.embedder = None
    assert await context_steer(services, "c", "anything") is None
