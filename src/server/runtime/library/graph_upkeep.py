"""Graph upkeep after the graph grew: embed new nodes, re-cluster, name clusters, settle layout.

All of it is derived and recomputable, so every step is non-fatal: an embedder that cannot load
leaves search on its text fallback; a labeler that fails leaves term labels. Heavy numeric work
(clustering, layout) runs in worker threads. One refresh at a time; ``schedule`` coalesces
requests from imports and extraction runs into one background refresh, a task of the app's
supervisor; shutdown cancels it and loses nothing (everything here is derived).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from pathlib import PurePosixPath
from typing import Any

from studyhall.core.agents.cluster_labeler import PROMPT_NAME as LABEL_PROMPT
from studyhall.core.agents.cluster_labeler import ask_label
from studyhall.core.contracts.graph import Cluster
from studyhall.core.errors import ModelError, ModelNotConfigured, StudyhallError
from studyhall.core.library.graph.outline import current_sections, meaning_text
from studyhall.core.library.graph.snapshot import GraphSnapshot
from studyhall.core.library.imports.report import ImportProgress, ProgressFn, quiet
from studyhall.core.library.upkeep.report import UpkeepReport
from studyhall.core.library.upkeep.vector_cache import Vector, VectorCache
from studyhall.core.ports.models import ChatModel, Embedder
from studyhall.core.ports.storage import GraphStore, SourceStore
from studyhall.server.runtime.library.graph_reader import GraphReader
from studyhall.server.runtime.reactions import GraphMerged
from studyhall.server.runtime.supervisor import Supervisor

log = logging.getLogger("studyhall.upkeep")

MAX_LABEL_CALLS = 100  # per refresh; the rest keep term labels until the next one


class GraphUpkeep:
    def __init__(
        self,
        *,
        graph_store: GraphStore,
        source_store: SourceStore,
        reader: GraphReader,
        embedder: Embedder | None,
        chat_model: ChatModel | None,
        prompt: Callable[[str], str],
        supervisor: Supervisor,
        model_usable: Callable[[], bool] = lambda: True,
    ) -> None:
        self._store = graph_store
        # Where each note lives (its folder may name its region) and its sections now.
        self._sources = source_store
        self.reader = reader
        self.embedder = embedder
        self._model = chat_model
        self._prompt = prompt
        self._model_usable = model_usable  # False when plainly no key/script: skip the call
        self._cache: VectorCache | None = None
        self._lock = asyncio.Lock()
        self._waiting: asyncio.Task[UpkeepReport] | None = None  # scheduled, not started yet
        self._supervisor = supervisor

    def snapshot(self) -> GraphSnapshot:
        """The graph as it stands (blocking: a cold read folds)."""
        return self.reader.snapshot()

    def cache(self) -> VectorCache | None:
        """The vector cache of the embedder's current model (a new one if the model changed)."""
        if self.embedder is None:
            return None
        try:
            model = self.embedder.model_id
        except StudyhallError as e:
            log.warning("[upkeep] no embedder: %s", e)
            return None
        if self._cache is None or self._cache.model != model:
            self._cache = VectorCache(self.embedder, self._store, off_loop=asyncio.to_thread)
        return self._cache

    async def sections_now(self) -> dict[str, tuple[str, ...]]:
        """Each note's sections now, as the sources index recorded them (it is cached)."""
        return await asyncio.to_thread(lambda: current_sections(self._sources.list()))

    async def node_vectors(
        self,
        snapshot: GraphSnapshot,
        *,
        compute: bool = True,
        progress: Callable[[int, int], None] | None = None,
    ) -> dict[str, Vector]:
        """Vectors of the snapshot's nodes (embedding what is missing unless ``compute`` is
        False); ``{}`` when there is no working embedder."""
        cache = self.cache()
        if cache is None:
            return {}
        now = await self.sections_now()  # headings a note has lost are not part of its meaning
        if compute:
            await cache.ensure((meaning_text(n, now) for n in snapshot.nodes), progress)
            await cache.persist()
        out: dict[str, Vector] = {}
        for node in snapshot.nodes:
            vector = cache.get(meaning_text(node, now))
            if vector is not None:
                out[node.id] = vector
        return out

    def schedule(self) -> asyncio.Task[UpkeepReport]:
        """Start a background refresh unless one is already waiting to start. A refresh that
        has started may have read the graph before the latest merge, so it is not joined."""
        if self._waiting is None or self._waiting.done():
            self._waiting = self._supervisor.spawn("graph upkeep", self._background())
        return self._waiting

    def graph_merged(self, merged: GraphMerged) -> None:
        """An extraction run merged nodes: they get vectors, clusters and positions now."""
        self.schedule()

    async def _background(self) -> UpkeepReport:
        try:
            async with self._lock:
                self._waiting = None  # it reads the graph from here: a later merge needs another
                return await self._refresh(quiet, True)
        except StudyhallError as e:
            log.warning("[upkeep] refresh failed: %s", e)
            return UpkeepReport(problems=[str(e)])
        except Exception as e:  # derived data: a failed refresh is logged, the next one retries
            log.exception("[upkeep] refresh failed")
            return UpkeepReport(problems=[f"The graph upkeep failed ({type(e).__name__})."])

    async def refresh(
        self, progress: ProgressFn = quiet, *, layout: bool = True,
        arrange_after: Callable[[], Awaitable[object]] | None = None,
    ) -> UpkeepReport:
        """Embed the nodes, then cluster and lay them out. ``arrange_after``, when given, is
        awaited between the two (an import's search-index side still embedding: clustering
        and layout read every vector and would only compete with it for the cores); when it
        answers True it merged nodes, which are embedded before the clustering."""
        async with self._lock:
            return await self._refresh(progress, layout, arrange_after)

    async def _refresh(self, progress: ProgressFn, layout: bool,
                       arrange_after: Callable[[], Awaitable[object]] | None = None,
                       ) -> UpkeepReport:
        report = UpkeepReport()
        snapshot = await asyncio.to_thread(self.reader.snapshot)  # a cold read folds: CPU
        report.nodes = len(snapshot.nodes)
        started = time.perf_counter()
        progress(ImportProgress("embedding", 0, report.nodes))
        vectors: dict[str, Vector] = {}
        cache = self.cache()
        try:
            if cache is not None:
                hits, misses = cache.hits, cache.misses
                vectors = await self.node_vectors(snapshot, progress=lambda done, total: progress(
                    ImportProgress("embedding", done, total)))
                report.cache_hits, report.cache_misses = cache.hits - hits, cache.misses - misses
                report.embedded = report.cache_misses
        except StudyhallError as e:
            report.problems.append(f"Embeddings were skipped: {e}")
            log.warning("[upkeep] embeddings skipped: %s", e)
        except Exception as e:  # derived data: never fail what was merged
            report.problems.append(
                f"Embeddings were skipped ({type(e).__name__}); see the log. Search falls back "
                "to text until they are made."
            )
            log.exception("[upkeep] embeddings failed")
        report.seconds["embedding"] = round(time.perf_counter() - started, 3)
        if arrange_after is not None and await arrange_after() is True and cache is not None:
            # It merged nodes of its own (an import's lecture topics): embed those too (the
            # cache answers for every node embedded above).
            snapshot = await asyncio.to_thread(self.reader.snapshot)
            report.nodes = len(snapshot.nodes)
            try:
                vectors = await self.node_vectors(snapshot)
            except StudyhallError as e:
                report.problems.append(f"Embeddings were skipped: {e}")
        if vectors:
            started = time.perf_counter()
            progress(ImportProgress("clustering", 0, len(vectors)))
            clusters = await self._clusters(snapshot, vectors, report)
            await asyncio.to_thread(self._store.save_clusters, clusters)
            report.clusters = len(clusters)
            report.seconds["clustering"] = round(time.perf_counter() - started, 3)
        if layout:
            started = time.perf_counter()
            progress(ImportProgress("layout", 0, report.nodes))
            report.positioned = await self.settle(snapshot)
            report.seconds["layout"] = round(time.perf_counter() - started, 3)
        progress(ImportProgress("done", report.nodes, report.nodes))
        return report

    async def _clusters(
        self, snapshot: GraphSnapshot, vectors: dict[str, Vector], report: UpkeepReport
    ) -> list[Cluster]:
        # Imported here: clustering and layout pull in numpy, which the app's start-up skips.
        from studyhall.core.library.upkeep.cluster_names import (
            central_name,
            folder_names,
            topic_texts,
            unique_names,
        )
        from studyhall.core.library.upkeep.clusters import (
            at_least,
            carry_labels,
            cluster_vectors,
            needs_label,
        )
        from studyhall.core.library.upkeep.regions import with_regions

        # Every step over the whole graph in a worker (a term label ranks its cluster's
        # members over every edge; 20k nodes held the loop for a second).
        groups = await asyncio.to_thread(cluster_vectors, vectors)
        groups = await asyncio.to_thread(at_least, groups, vectors)  # 5 regions at least
        previous = await asyncio.to_thread(self._store.clusters)
        clusters = await asyncio.to_thread(carry_labels, groups, previous)
        texts = {n.id: n.text for n in snapshot.nodes}
        known = topic_texts(texts)
        edges = [(e.source, e.target) for e in snapshot.edges]
        by_folder = folder_names(clusters, await asyncio.to_thread(self._folders, snapshot))
        use_model = self._model is not None and self._model_usable()
        calls = 0
        named: list[Cluster] = []
        for cluster in clusters:
            if not needs_label(cluster, use_model):
                named.append(cluster)
                continue
            label: str | None = None
            if use_model and calls < MAX_LABEL_CALLS:
                assert self._model is not None
                calls += 1
                try:
                    label = await ask_label(
                        self._model,
                        self._prompt(LABEL_PROMPT),
                        [texts[i] for i in cluster.node_ids if i in texts],
                    )
                except ModelNotConfigured as e:
                    use_model = False  # no key / no script: term labels for the rest
                    log.info("[upkeep] cluster labels from terms: %s", e)
                except ModelError as e:
                    log.warning("[upkeep] labeler failed for %s: %s", cluster.id, e)
            if label is not None:
                report.labeled_by_model += 1
                named.append(
                    cluster.model_copy(
                        update={"label": label, "label_source": "model", "core": cluster.node_ids}
                    )
                )
            elif cluster.label is None or cluster.label_source == "terms":
                report.labeled_by_terms += 1
                named.append(
                    cluster.model_copy(
                        update={
                            "label": by_folder.get(cluster.id) or await asyncio.to_thread(
                                central_name, cluster.node_ids, texts, edges, known=known),
                            "label_source": "terms",
                            "core": cluster.node_ids,
                        }
                    )
                )
            else:
                named.append(cluster)
        # Named first, so a region is named by its head cluster's (unique) label.
        unique = await asyncio.to_thread(unique_names, named, texts, edges)
        return await asyncio.to_thread(with_regions, unique, edges)

    def _folders(self, snapshot: GraphSnapshot) -> dict[str, str]:
        """Node id -> the folder its first source lives in, inside the imported root (its last
        part: "Physics" for Physics/Optics/Lenses.md would be "Optics"); none at the root."""
        parents = {s.id: PurePosixPath(s.path).parent for s in self._sources.list()}
        out: dict[str, str] = {}
        for node in snapshot.nodes:
            parent = parents.get(node.sources[0]) if node.sources else None
            if parent is not None and parent.name:
                out[node.id] = parent.name
        return out

    async def settle(
        self, snapshot: GraphSnapshot | None = None, pinned: dict[str, Any] | None = None
    ) -> int:
        """Place nodes that have no position yet (all of them on a first layout); returns how
        many were placed. ``pinned`` positions (dragged by the learner) are stored first."""
        if snapshot is None:
            snapshot = await asyncio.to_thread(self.reader.snapshot)
        previous = dict(self._store.positions())
        if pinned:
            previous.update(pinned)
        ids = [n.id for n in snapshot.nodes]
        missing = [i for i in ids if i not in previous]
        if not missing and not pinned:
            return 0
        edges = [(e.source, e.target) for e in snapshot.edges]
        from studyhall.core.library.upkeep.layout import settle_layout  # numpy: see _clusters

        positions = await asyncio.to_thread(settle_layout, ids, edges, previous)
        await asyncio.to_thread(self._store.save_positions, positions)
        return len(missing)
