"""``studyhall export markdown DIR``: write the graph's vault notes into a folder, touching only
files whose content changed and removing only notes an earlier export wrote.

It refuses a folder that is (or lies inside) a vault you imported, or that holds notes it did not
write (an Obsidian vault, your own Markdown), unless ``force``: an export must never overwrite a
learner's own notes by accident.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from studyhall.core.errors import InvalidInput
from studyhall.core.library.export.marker import MARK_KEY, MARK_VALUE
from studyhall.core.library.export.vault import TopicState, vault_notes
from studyhall.core.library.graph.view import GraphSnapshot
from studyhall.core.ports.storage import SourceStore
from studyhall.server.runtime.partial_files import sweep_partials, write_whole
from studyhall.server.runtime.review import ReviewService
from studyhall.server.runtime.study_export import source_refs

_MARK = f"---\n{MARK_KEY}: {MARK_VALUE}\n".encode()


@dataclass(frozen=True)
class VaultReport:
    notes: int
    written: int
    unchanged: int
    removed: int


def topic_states(review: ReviewService, snapshot: GraphSnapshot) -> dict[str, TopicState]:
    model = review.model(snapshot)
    out = {}
    for node in snapshot.nodes:
        card = model.card(node.id)
        out[node.id] = TopicState(model.score(node.id).value, node.state,
                                  card.due if card.reviews else None)
    return out


def _is_ours(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            return f.read(len(_MARK)) == _MARK
    except OSError:
        return False


def check_target(folder: Path, sources: SourceStore) -> None:
    """``InvalidInput`` when writing into ``folder`` could touch the learner's own notes."""
    where = folder.resolve()
    for root in sorted({s.root for s in sources.list()}):
        vault = Path(root).resolve()
        if where == vault or vault in where.parents:
            raise InvalidInput(f"{folder} is inside {vault}, a vault you imported. Pick an empty "
                               "folder for the export, or pass --force to write there anyway.")
    if not where.is_dir():
        return
    if (where / ".obsidian").exists():
        raise InvalidInput(f"{folder} is an Obsidian vault. Pick an empty folder for the export, "
                           "or pass --force to write into it anyway.")
    foreign = [p.name for p in sorted(where.glob("*.md")) if not _is_ours(p)]
    if foreign:
        raise InvalidInput(f"{folder} holds notes the export did not write ({foreign[0]}…). "
                           "Pick an empty folder, or pass --force to write there anyway.")


def write_vault(review: ReviewService, sources: SourceStore, base: GraphSnapshot | None,
                folder: Path, *, force: bool = False) -> VaultReport:
    if not force:
        check_target(folder, sources)
    snapshot = review.graph_snapshot(base)
    titles = {sid: ref.title for sid, ref in
              source_refs(sources, (s for n in snapshot.nodes for s in n.sources)).items()}
    notes = vault_notes(snapshot, topic_states(review, snapshot), titles)
    folder.mkdir(parents=True, exist_ok=True)
    # A note's hidden partial left by an export that was killed mid-write (never a learner's
    # file: recognised by its whole name, in this folder only).
    sweep_partials(folder, lambda target: target.endswith(".md"))
    written = unchanged = removed = 0
    for name, text in notes.items():
        path, data = folder / name, text.encode("utf-8")
        try:
            same = path.read_bytes() == data
        except FileNotFoundError:
            same = False
        if same:
            unchanged += 1
            continue
        write_whole(path, data)
        written += 1
    keep = {n.casefold() for n in notes}
    for stale in sorted(folder.glob("*.md")):
        # Only notes an earlier export wrote: a learner's own file is never removed.
        if stale.name.casefold() not in keep and _is_ours(stale):
            stale.unlink()
            removed += 1
    return VaultReport(len(notes), written, unchanged, removed)
