"""``Services``: every port of one app, each required, filled by the composition root.

It names ports (protocols from ``core.ports``), never adapter classes; ``server/app.py`` is the
only module that decides which adapter fills each slot. Frozen: the runtime is built from these
ports once, so a port swapped afterwards would silently not be used — build another instead
(``dataclasses.replace(services, embedder=...)``, as tests do).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from studyhall.core.ports.exports import DeckWriter, VaultWriter
from studyhall.core.ports.models import (
    CapabilityProbe,
    ChatModel,
    Embedder,
    Reranker,
    Transcriber,
)
from studyhall.core.ports.sandbox import Sandbox
from studyhall.core.ports.search import SearchIndex
from studyhall.core.ports.sources import MaterialReader, VaultReader
from studyhall.core.ports.storage import (
    ArtifactStore,
    AskStore,
    ChatStore,
    GoalStore,
    GraphStore,
    JobStore,
    LearnerStore,
    SecretStore,
    SettingsStore,
    SourceStore,
)
from studyhall.core.ports.system import Clock, Ids
from studyhall.server.config import Config

Hook = Callable[[], Awaitable[None]]


@dataclass(frozen=True)
class Services:
    config: Config
    settings_store: SettingsStore
    secret_store: SecretStore
    clock: Clock
    ids: Ids
    chat_store: ChatStore
    graph_store: GraphStore
    learner_store: LearnerStore  # review grades, the teacher's observations
    goal_store: GoalStore  # the learner's goals across sessions
    job_store: JobStore
    source_store: SourceStore
    ask_store: AskStore  # the Ask history (questions asked in the window, with their answers)
    artifact_store: ArtifactStore  # kept study artifacts (notes, flashcards, guides...)
    chat_model: ChatModel  # one adapter serves every model role
    capability_probe: CapabilityProbe  # what each role's server can do (tools, JSON, context)
    embedder: Embedder  # node and passage vectors (the settings pick the model)
    # Grounded Ask: the retrieval index, course-material readers, and the local passage scorer
    # (late interaction over the bundled MiniLM; no model call).
    search_index: SearchIndex
    material_reader: MaterialReader
    passage_scorer: Reranker
    vault_reader: VaultReader  # Markdown/Obsidian vaults from disk
    sandbox: Sandbox  # the headless browser that checks generated demos and diagrams
    transcriber: Transcriber  # audio/video without captions to a timed transcript (BYOK)
    deck_writer: DeckWriter  # ``studyhall export anki`` and the window's deck download
    vault_writer: VaultWriter  # ``studyhall export markdown``: a folder of notes
    # The local encoder's one-time set-up (the ONNX export), run at the app's first start:
    # ``prepare`` blocks until it is ready, ``needed`` says whether anything is left to do.
    prepare_encoder: Callable[[], None] | None = None
    encoder_needs_setup: Callable[[], bool] = lambda: False
    # What the adapters need at start-up / shutdown (e.g. the key preload, the sandbox's
    # browser); ``runtime.started`` runs them around the runtime's own steps.
    on_startup: tuple[Hook, ...] = ()
    on_shutdown: tuple[Hook, ...] = ()
