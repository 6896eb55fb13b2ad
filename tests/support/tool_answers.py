"""A fake of the answers behind the tutor's learner tools: it answers with what it was
asked (shared by the learner-tools tests)."""

from __future__ import annotations

from typing import Any


class FakeToolAnswers:
    """Answers with what it was asked; knows the nodes in ``nodes``."""

    def __init__(self, nodes: set[str] = frozenset({"n_1"}), repeat: str | None = None) -> None:
        self.nodes = set(nodes)
        self.repeat = repeat
        self.calls: list[tuple[str, Any]] = []

    async def _record(self, name: str, *args: Any) -> dict[str, Any]:
        self.calls.append((name, args))
        return {"asked": name, "args": list(args)}

    async def strengths(self, ctx, topic, limit):
        return await self._record("strengths", topic, limit)

    async def confidence(self, concept):
        return await self._record("confidence", concept)

    async def explain(self, node_id):
        return await self._record("explain", node_id)

    async def history(self, ctx, query, limit):
        return await self._record("history", query, limit)

    async def due(self, ctx, topic, limit):
        return await self._record("due", topic, limit)

    async def material(self, query, limit):
        return await self._record("material", query, limit)

    async def has_node(self, node_id):
        return node_id in self.nodes

    async def observed(self, ctx, node_id, quote):
        return self.repeat

    async def observe(self, ctx, node_id, level, quote, note):
        return await self._record("observe", node_id, level, quote, note)

