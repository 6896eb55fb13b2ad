"""``Services``: the bag of ports the composition root hands to routes, runtime and the CLI.

It holds ports (protocols from ``core.ports``) and runtime objects, never adapter classes by
name; ``server/app.py`` is the only module that decides which adapter fills each slot. Each
helper adds the slots its feature needs with a small edit here and in ``build_services``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studyhall.core.ports.models import ChatModel, Embedder, Reranker
from studyhall.core.ports.sandbox import Sandbox
from studyhall.core.ports.search import SearchIndex
from studyhall.core.ports.sources import MaterialReader, VaultReader
from studyhall.core.ports.storage import (
    ChatStore,
    GraphStore,
    JobStore,
    SecretStore,
    SettingsStore,
    SourceStore,
)
from studyhall.core.ports.system import Clock, Ids
from studyhall.server.config import Config

Hook = Callable[[], Awaitable[None]]


@dataclass
class Services:
    config: Config
    settings_store: SettingsStore
    secret_store: SecretStore
    clock: Clock | None = None
    ids: Ids | None = None
    chat_store: ChatStore | None = None
    graph_store: GraphStore | None = None
    job_store: JobStore | None = None
    source_store: SourceStore | None = None
    chat_model: ChatModel | None = None
    embedder: Embedder | None = None
    audit_path: Path | None = None
    # Grounded Ask (issue 10): the retrieval index, course-material readers, and the local
    # passage scorer (late interaction over the bundled MiniLM; no model call).
    search_index: SearchIndex | None = None
    material_reader: MaterialReader | None = None
    passage_scorer: Reranker | None = None
    # The encoder behind passage_scorer; it also embeds chunks when no embedder is wired.
    local_encoder: Embedder | None = None
    # Notes import (issue 7): reads Markdown/Obsidian vaults from disk.
    vault_reader: VaultReader | None = None
    # Workbench (issue 8): the headless browser that checks generated demos and diagrams.
    sandbox: Sandbox | None = None
    # Runtime seams: async callables run when the app starts / stops (job runner, schedulers).
    on_startup: list[Hook] = field(default_factory=list)
    on_shutdown: list[Hook] = field(default_factory=list)
    # Free-form runtime objects other layers register (turn runner, extraction scheduler, ...).
    extras: dict[str, Any] = field(default_factory=dict)

    def require(self, what: str, *names: str) -> None:
        """Fail when a runtime object is first built, naming every service this build lacks."""
        missing = [name for name in names if getattr(self, name, None) is None]
        if missing:
            raise RuntimeError(f"{what} needs services {', '.join(missing)}")
