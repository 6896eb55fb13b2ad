"""The library's runtime objects of an app, built from its services on first use: one graph
reader (incremental fold) and one extraction scheduler, plugged into the turn runner's
after-turn hooks so a turn that leaves enough uncovered text triggers a run; a run that merged
schedules the graph upkeep (embeddings, clusters, layout) in the background."""

from __future__ import annotations

from studyhall.server.runtime.extraction import ExtractionScheduler
from studyhall.server.runtime.graph_reader import GraphReader
from studyhall.server.runtime.prompts import load_prompt
from studyhall.server.services import Services

_READER = "graph_reader"
_SCHEDULER = "extraction"


def graph_reader(services: Services) -> GraphReader:
    reader = services.extras.get(_READER)
    if isinstance(reader, GraphReader):
        return reader
    if services.graph_store is None:
        raise RuntimeError("the graph reader needs services.graph_store")
    reader = GraphReader(services.graph_store)
    services.extras[_READER] = reader
    return reader


def extraction_scheduler(services: Services) -> ExtractionScheduler:
    scheduler = services.extras.get(_SCHEDULER)
    if isinstance(scheduler, ExtractionScheduler):
        return scheduler
    services.require("the extraction scheduler",
                     "chat_store", "graph_store", "chat_model", "clock", "ids")
    assert services.chat_store and services.graph_store and services.chat_model
    assert services.clock and services.ids
    scheduler = ExtractionScheduler(
        chat_store=services.chat_store,
        graph_store=services.graph_store,
        settings_store=services.settings_store,
        chat_model=services.chat_model,
        clock=services.clock,
        ids=services.ids,
        prompt=load_prompt,
        reader=graph_reader(services),
        after_merge=lambda: _upkeep(services),
    )
    services.extras[_SCHEDULER] = scheduler
    from studyhall.server.runtime.classroom import (
        turn_runner,  # here, not at import: reading the graph needs no turns
    )

    turn_runner(services).hooks.append(scheduler.on_turn_end)
    services.on_shutdown.append(scheduler.shutdown)
    return scheduler


def _upkeep(services: Services) -> None:
    """New nodes from a session get vectors, clusters and positions in the background."""
    from studyhall.server.runtime.import_runs import (
        graph_upkeep,  # here: import_runs imports this module
    )

    graph_upkeep(services).schedule()
