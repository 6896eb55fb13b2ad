"""Deterministic choice shuffling, seeded by the tool call id.

The same quiz shows its choices in the same order on every render, reload and restart (no
process randomness: SHA-256 of the id), and grading maps displayed positions back through the
same permutation.
"""

from __future__ import annotations

import hashlib


def choice_order(tool_call_id: str, q_index: int, n: int) -> list[int]:
    """``order[d]`` is the original index of the choice displayed at position ``d``."""
    order = list(range(n))
    seed = f"{tool_call_id}\x00{q_index}".encode()
    for i in range(n - 1, 0, -1):  # Fisher-Yates; 64 bits per draw makes modulo bias nil
        digest = hashlib.sha256(seed + b"\x00" + str(i).encode()).digest()
        j = int.from_bytes(digest[:8], "big") % (i + 1)
        order[i], order[j] = order[j], order[i]
    return order
