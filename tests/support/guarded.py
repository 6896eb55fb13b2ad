"""Seeing what a provider receives: a recorder put between the guardrails and the adapter, and
a guard that fails any outbound connection to a host other than this machine."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from studyhall.core.guardrails.chat_model import GuardedChatModel
from studyhall.server.services import Services

from tests.support.chat_model import FunctionChatModel

_LOOPBACK = ("127.", "::1", "localhost", "0.0.0.0")


def record_provider(services: Services) -> tuple[Services, FunctionChatModel]:
    """``services`` whose model records what the provider adapter is sent (after scrubbing)."""
    guarded = services.chat_model
    assert isinstance(guarded, GuardedChatModel), "the composition root wraps the model"
    recorder = FunctionChatModel(guarded.inner.stream)
    return replace(services, chat_model=GuardedChatModel(recorder, guarded.scrub_for)), recorder


@contextmanager
def no_outbound_connections() -> Iterator[list[Any]]:
    """Any connect() to a non-loopback address is recorded and refused."""
    attempts: list[Any] = []
    original = socket.socket.connect

    def guarded(self: socket.socket, address: Any) -> Any:
        host = address[0] if isinstance(address, tuple) else str(address)
        if not str(host).startswith(_LOOPBACK) and self.family != socket.AF_UNIX:
            attempts.append(address)
            raise ConnectionRefusedError(f"test guard: no outbound connection to {address!r}")
        return original(self, address)

    socket.socket.connect = guarded  # type: ignore[method-assign]
    try:
        yield attempts
    finally:
        socket.socket.connect = original  # type: ignore[method-assign]
