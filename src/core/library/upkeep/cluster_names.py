"""Cluster names with no model: the cluster's most central topic, short and unique.

A region of the map is named like a person would name it — by its most central note title or
heading (the member with the most edges inside the cluster; ties to the shorter name, then the
id), never by a list of keywords. A heading topic an older import made ("Note: Heading", its
note a topic of the graph, or the prefix of another member too) is named by its heading alone
when its note is not in the cluster; a title with a colon of its own ("Graph basics: vertices
and edges") is kept whole. Two clusters with the same name get the note their headings belong
to, or their next most central member, added ("Settings — Plugins"), and a number when that
is not enough. A name that reads as code (``readable_names.py``) is never used: the next most
central member, else the note a heading belongs to, else the folder.
Where the topics of a cluster mostly live in one folder that names no other cluster better,
the folder names it (``folder_names``): the learner's own name for that area.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence

from studyhall.core.contracts.graph import Cluster
from studyhall.core.library.upkeep.readable_names import readable

MAX_NAME = 48  # characters: a label must fit on the map


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_NAME else text[: MAX_NAME - 1].rstrip() + "…"


def ranked_members(members: Sequence[str], texts: Mapping[str, str],
                   edges: Iterable[tuple[str, str]]) -> list[str]:
    """Members, most central first (degree inside the cluster, then shorter text, then id)."""
    inside = set(members)
    degree: Counter[str] = Counter()
    for source, target in edges:
        if source in inside and target in inside:
            degree[source] += 1
            degree[target] += 1
    return sorted((m for m in members if m in texts),
                  key=lambda m: (-degree[m], len(texts[m]), m))


def topic_texts(texts: Mapping[str, str]) -> frozenset[str]:
    """Every node's text, to tell a heading's note (a topic of its own) from a title's prefix."""
    return frozenset(texts.values())


def _heading_notes(members: Sequence[str], texts: Mapping[str, str],
                   known: Collection[str]) -> Callable[[str], bool]:
    """Whether a "Note: Heading" prefix names a note: a topic of the graph, or shared by two
    members (headings of one note). Else it is part of a title."""
    shared = Counter(texts[m].partition(": ")[0] for m in members if ": " in texts.get(m, ""))
    return lambda note: note in known or shared[note] >= 2


def member_name(node: str, members: Sequence[str], texts: Mapping[str, str],
                is_note: Callable[[str], bool]) -> str:
    text = texts[node]
    note, sep, heading = text.partition(": ")
    if not (sep and heading and is_note(note)):
        return _short(text)  # a title, colon and all
    present = {texts.get(m) for m in members}
    return _short(heading if note not in present else text)


def central_name(members: Sequence[str], texts: Mapping[str, str],
                 edges: Iterable[tuple[str, str]], folder: str | None = None,
                 known: Collection[str] | None = None) -> str:
    """The most central member whose name reads as words; else the note its most central
    heading belongs to, else ``folder`` (the members' common folder), else "Untitled region".
    ``known``: ``topic_texts(texts)``, passed in when naming many clusters of one graph."""
    is_note = _heading_notes(members, texts, topic_texts(texts) if known is None else known)
    ranked = ranked_members(members, texts, edges)
    names = (member_name(m, members, texts, is_note) for m in ranked)
    notes = (_short(texts[m].partition(": ")[0]) for m in ranked
             if ": " in texts[m] and is_note(texts[m].partition(": ")[0]))
    return next((n for n in (*names, *notes, folder) if readable(n)), None) or "Untitled region"


FOLDER_SHARE = 0.6  # of a cluster's topics that live in a folder, at least this many in one
# Folders that hold files by kind, not by subject: never a region's name.
NOT_A_SUBJECT = frozenset([
    "archive", "assets", "attachments", "bin", "build", "dist", "files", "images", "img",
    "inbox", "lib", "media", "out", "resources", "src", "static", "temp", "tmp", "vendor",
])


def _names_a_subject(folder: str) -> bool:
    if folder.startswith(("_", ".")) or folder.casefold() in NOT_A_SUBJECT:
        return False  # __init__, .trash, src
    return readable(folder_label(folder))


def folder_label(folder: str) -> str:
    """A folder as a region's name: "machine-learning" -> "Machine learning", "Physics" kept."""
    words = folder.replace("-", " ").replace("_", " ").split()
    text = " ".join(words)
    return _short(text[:1].upper() + text[1:] if text.islower() else text)


def folder_names(clusters: Sequence[Cluster], folder_of: Mapping[str, str]) -> dict[str, str]:
    """Cluster id -> its folder's name, for the clusters a folder names: an Obsidian learner's
    folders are the names they gave their areas, so where one is distinctive it wins over the
    most central title. A cluster is named by folder F when F holds at least ``FOLDER_SHARE``
    of its topics that have a folder, and no other cluster holds more of F's topics (ties: the
    larger cluster, then the id); F must name a subject (never ``src``, ``__init__``, "attachments")
    and read as words (``readable_names.py``: never "notes"). Topics at the vault's root, sessions and decks have no folder."""
    best: dict[str, tuple[int, int, str]] = {}  # folder -> (-held, -size, cluster id), least wins
    chosen: dict[str, str] = {}
    for cluster in clusters:
        counts = Counter(folder_of[n] for n in cluster.node_ids if n in folder_of)
        if not counts:
            continue
        folder, held = min(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        if held < FOLDER_SHARE * sum(counts.values()) or not _names_a_subject(folder):
            continue
        rank = (-held, -len(cluster.node_ids), cluster.id)
        if folder not in best or rank < best[folder]:
            best[folder] = rank
            chosen[folder] = cluster.id
    return {cluster_id: folder_label(folder) for folder, cluster_id in chosen.items()}


def unique_names(clusters: Sequence[Cluster], texts: Mapping[str, str],
                 edges: Sequence[tuple[str, str]]) -> list[Cluster]:
    """The same clusters, no two with the same label (case-insensitive), none that reads as
    code (a model's or an older label like that is replaced by the central name)."""
    known = topic_texts(texts)
    firsts = [c.label if c.label and readable(c.label)
              else central_name(c.node_ids, texts, edges, known=known) for c in clusters]
    counts = Counter(label.casefold() for label in firsts)
    taken: set[str] = set()
    out: list[Cluster] = []
    for cluster, label in zip(clusters, firsts, strict=True):
        if counts[label.casefold()] > 1:
            extra = _distinct(label, cluster.node_ids, texts, edges, known)
            if extra:
                label = f"{label} — {extra}"
        base, n = label, 2
        while label.casefold() in taken:  # a number, never "(2)": brackets read as code
            label, n = f"{base} {n}", n + 1
        taken.add(label.casefold())
        out.append(cluster if label == cluster.label else cluster.model_copy(update={"label": label}))
    return out


def _distinct(label: str, members: Sequence[str], texts: Mapping[str, str],
              edges: Sequence[tuple[str, str]], known: Collection[str]) -> str | None:
    """What tells this cluster apart: the note its central headings belong to, else its next
    most central member whose name is not the label."""
    is_note = _heading_notes(members, texts, known)
    ranked = ranked_members(members, texts, edges)
    notes = [texts[m].partition(": ")[0] for m in ranked
             if ": " in texts[m] and is_note(texts[m].partition(": ")[0])]
    names = [member_name(m, members, texts, is_note) for m in ranked]
    for candidate in (*notes, *names):
        if candidate.casefold() != label.casefold() and readable(candidate):
            return _short(candidate)
    return None
