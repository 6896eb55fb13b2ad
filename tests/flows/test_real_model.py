"""The real app against a real model (issue 31): llama.cpp's ``llama-server`` serving
SmolLM2-135M-Instruct on 127.0.0.1, every role pointed at it as an OpenAI-compatible address.
Mechanics, not content (``tests/support/real_model_walk.py``): every turn ends with text or a
question, nothing invalid reaches a ledger, Ask cites only what it listed, the app answers
/api/health while a turn runs. Skipped only where cmake or a C++ compiler is missing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.llama_server import LlamaServer, Unavailable, running_llama_server
from tests.support.real_model_walk import (
    Tally,
    artifact_walk,
    ask_walk,
    ledger_problems,
    quiz_me_walk,
    session_walk,
    timed,
)
from tests.support.real_models import real_app, real_services

pytestmark = [pytest.mark.real_model, pytest.mark.timeout(480)]


@pytest.fixture(scope="module")
def llama() -> Iterator[LlamaServer]:
    try:
        with running_llama_server() as server:
            yield server
    except Unavailable as why:
        pytest.skip(f"no real model server: {why}")


async def test_a_whole_session_ends_every_turn_cleanly(llama: LlamaServer) -> None:
    tally = Tally()
    services = timed(real_services(llama), tally)  # type: ignore[arg-type]
    async with real_app(llama, services) as (api, runtime, _):  # type: ignore[arg-type]
        chat_id = await session_walk(api, runtime, tally)
        record = runtime.services.chat_store.get(chat_id)  # read back through its validator
    assert record is not None and record.messages
    assert tally.problems == [], "\n".join(tally.lines() + tally.problems)
    assert tally.clean == tally.turns >= 3
    assert tally.extraction and tally.extraction[0] in ("wrote", "nothing", "failed cleanly")
    assert tally.health_worst_s < 2.0  # the app kept answering while the model worked
    assert ledger_problems(runtime.services) == []


async def test_ask_artifact_and_quiz_me_over_imported_passages(llama: LlamaServer,
                                                              tmp_path: Path) -> None:
    tally = Tally()
    services = timed(real_services(llama), tally)  # type: ignore[arg-type]
    async with real_app(llama, services) as (api, runtime, _):  # type: ignore[arg-type]
        await ask_walk(api, runtime, tally, tmp_path)
        await quiz_me_walk(api, runtime, tally, tmp_path)
        await artifact_walk(api, runtime, tally)
    assert tally.problems == [], "\n".join(tally.lines() + tally.problems)
    assert tally.asks == tally.asks_cited_only_listed == 2  # no invented citation survived
    assert ledger_problems(runtime.services) == []
