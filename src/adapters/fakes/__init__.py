"""Fakes: in-memory implementations of every port (``InMemory*``), for tests and the scripted app,
held to the same contract tests as the real adapters, plus deterministic time and ids
(``FixedClock``, ``SequentialIds``) for tests and fakes.
"""

from studyhall.adapters.fakes.artifacts import InMemoryArtifactStore
from studyhall.adapters.fakes.asks import InMemoryAskStore
from studyhall.adapters.fakes.chats import InMemoryChatStore
from studyhall.adapters.fakes.clock import FixedClock, SequentialIds
from studyhall.adapters.fakes.exports import InMemoryDeckWriter, InMemoryVaultWriter
from studyhall.adapters.fakes.goals import InMemoryGoalStore
from studyhall.adapters.fakes.graph import InMemoryGraphStore
from studyhall.adapters.fakes.jobs import InMemoryJobStore
from studyhall.adapters.fakes.learner import InMemoryLearnerStore
from studyhall.adapters.fakes.secrets import InMemorySecretStore
from studyhall.adapters.fakes.settings import InMemorySettingsStore
from studyhall.adapters.fakes.sources import InMemorySourceStore

__all__ = [
    "FixedClock",
    "InMemoryArtifactStore",
    "InMemoryAskStore",
    "InMemoryChatStore",
    "InMemoryDeckWriter",
    "InMemoryGoalStore",
    "InMemoryGraphStore",
    "InMemoryJobStore",
    "InMemoryLearnerStore",
    "InMemorySecretStore",
    "InMemorySettingsStore",
    "InMemorySourceStore",
    "InMemoryVaultWriter",
    "SequentialIds",
]
