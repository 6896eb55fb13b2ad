"""In-memory implementations of every port, held to the same contract tests as the real adapters,
plus deterministic time and ids (``FixedClock``, ``SequentialIds``) for tests and fakes."""

from .chats import InMemoryChatStore
from .clock import FixedClock, SequentialIds
from .graph import InMemoryGraphStore
from .jobs import InMemoryJobStore
from .secrets import InMemorySecretStore
from .settings import InMemorySettingsStore
from .sources import InMemorySourceStore

__all__ = [
    "FixedClock",
    "InMemoryChatStore",
    "InMemoryGraphStore",
    "InMemoryJobStore",
    "InMemorySecretStore",
    "InMemorySettingsStore",
    "InMemorySourceStore",
    "SequentialIds",
]
