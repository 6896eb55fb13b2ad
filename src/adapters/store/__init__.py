"""File stores: chats, jobs, sources and settings as atomically replaced JSON files; the graph as
append-only JSONL ledgers read tolerantly and incrementally, plus whole-file side stores."""

from .atomic import atomic_write_bytes, sweep_temp_files
from .chats import JsonChatStore
from .graph import JsonlGraphStore
from .jobs import JsonJobStore
from .ledger import JsonlLedger
from .settings import JsonSettingsStore
from .sources import JsonSourceStore

__all__ = [
    "JsonChatStore",
    "JsonJobStore",
    "JsonSettingsStore",
    "JsonSourceStore",
    "JsonlGraphStore",
    "JsonlLedger",
    "atomic_write_bytes",
    "sweep_temp_files",
]
