"""Bounds on every JSON schema a model answers under: a grammar-constrained small model writes
valid JSON whose strings run on until ``max_tokens`` cuts them. Every string without a
``maxLength`` gets one and every array without ``maxItems`` one, so the grammar itself ends them.
"""

from __future__ import annotations

from typing import Any

MAX_STRING = 1_200  # characters: a paragraph; a field that needs more says so itself
MAX_ITEMS = 24


def bounded(schema: dict[str, Any], *, string: int = MAX_STRING,
            items: int = MAX_ITEMS) -> dict[str, Any]:
    """A copy of ``schema`` in which every string and array has an upper bound (the bounds it
    already has are kept)."""
    out: dict[str, Any] = _bound(schema, string, items)
    return out


def _bound(node: Any, string: int, items: int) -> Any:
    if isinstance(node, list):
        return [_bound(n, string, items) for n in node]
    if not isinstance(node, dict):
        return node
    out = {k: (v if k in ("enum", "const", "required", "default") else _bound(v, string, items))
           for k, v in node.items()}
    kinds = out.get("type")
    kinds = set(kinds) if isinstance(kinds, list) else {kinds}
    if "string" in kinds and "enum" not in out and "const" not in out:
        out.setdefault("maxLength", string)
    if "array" in kinds:
        out.setdefault("maxItems", items)
    return out


def unbounded_paths(schema: Any, path: str = "$") -> list[str]:
    """Where a string or array has no upper bound (for tests and checks): empty when bounded."""
    found: list[str] = []
    if isinstance(schema, list):
        for n, item in enumerate(schema):
            found += unbounded_paths(item, f"{path}[{n}]")
        return found
    if not isinstance(schema, dict):
        return found
    kinds = schema.get("type")
    kinds = set(kinds) if isinstance(kinds, list) else {kinds}
    if "string" in kinds and not {"maxLength", "enum", "const"} & set(schema):
        found.append(path)
    if "array" in kinds and "maxItems" not in schema:
        found.append(path)
    for key, value in schema.items():
        if key not in ("enum", "const", "required", "default"):
            found += unbounded_paths(value, f"{path}.{key}")
    return found
