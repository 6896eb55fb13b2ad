"""In-memory implementations of every port, held to the same contract tests as the real adapters,
plus deterministic time and ids (``FixedClock``, ``SequentialIds``) for tests and fakes."""

from studyhall.adapters.memory.artifacts import InMemoryArtifactStore
from studyhall.adapters.memory.asks import InMemoryAskStore
from studyhall.adapters.memory.chats import InMemoryChatStore
from studyhall.adapters.memory.clock import FixedClock, SequentialIds
from studyhall.adapters.memory.graph import InMemoryGraphStore
from studyhall.adapters.memory.jobs import InMemoryJobStore
from studyhall.adapters.memory.learner import InMemoryLearnerStore
from studyhall.adapters.memory.secrets import InMemorySecretStore
from studyhall.adapters.memory.settings import InMemorySettingsStore
from studyhall.adapters.memory.sources import InMemorySourceStore

__all__ = [
    "FixedClock",
    "InMemoryArtifactStore",
    "InMemoryAskStore",
    "InMemoryChatStore",
    "InMemoryGraphStore",
    "InMemoryJobStore",
    "InMemoryLearnerStore",
    "InMemorySecretStore",
    "InMemorySettingsStore",
    "InMemorySourceStore",
    "SequentialIds",
]
