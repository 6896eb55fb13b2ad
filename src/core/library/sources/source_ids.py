"""One naming rule for every imported file: which folder it belongs to and what its id is.

The notes import and the course-material import both read the same Markdown files; a note must
get the same ``Source`` id from both, or deleting it leaves its passages in the ask index. So
both sides name the root the same way and hash the same ``"<root name>/<root-relative path>"``.
"""

from __future__ import annotations

import hashlib


def root_name(root: str) -> str:
    """The name of an import root (the vault folder): its last path part, whatever the
    separator; ``"vault"`` for a root with no name (a file-system root)."""
    return root.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1] or "vault"


def path_source_id(kind: str, name: str, path: str) -> str:
    """Deterministic from the root's name (``root_name``) and the root-relative path:
    re-importing finds the same source; two vaults that both hold ``index.md`` do not collide."""
    digest = hashlib.sha256(f"{name}/{path}".encode()).hexdigest()
    return f"{kind}_{digest[:20]}"
