"""File stores: chats, jobs, sources and settings as atomically replaced JSON files; the graph,
the learner, kept artifacts and goals as append-only JSONL ledgers read tolerantly and incrementally,
plus whole-file side stores."""

from studyhall.adapters.store.artifacts import JsonlArtifactStore
from studyhall.adapters.store.asks import JsonAskStore
from studyhall.adapters.store.atomic import atomic_write_bytes, sweep_temp_files
from studyhall.adapters.store.chats import JsonChatStore
from studyhall.adapters.store.goals import JsonlGoalStore
from studyhall.adapters.store.graph import JsonlGraphStore
from studyhall.adapters.store.jobs import JsonJobStore
from studyhall.adapters.store.learner import JsonlLearnerStore
from studyhall.adapters.store.ledger import JsonlLedger
from studyhall.adapters.store.settings import JsonSettingsStore
from studyhall.adapters.store.sources import JsonSourceStore

__all__ = [
    "JsonAskStore",
    "JsonChatStore",
    "JsonJobStore",
    "JsonSettingsStore",
    "JsonSourceStore",
    "JsonlArtifactStore",
    "JsonlGoalStore",
    "JsonlGraphStore",
    "JsonlLearnerStore",
    "JsonlLedger",
    "atomic_write_bytes",
    "sweep_temp_files",
]
