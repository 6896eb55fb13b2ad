"""``FileSearchIndex``: BM25 (bm25s) + a dense vector matrix (numpy) over chunks.

Persisted per source (``store.py``); held in memory, and rebuilt lazily after a change: one
bm25s index and one vector matrix for the whole corpus, re-tokenizing only changed sources.
``root=None`` keeps everything in memory (tests, eval).

The app builds this index as it starts, so nothing heavy happens then: the files are read on
first use, and numpy is imported by the functions that compute (it is not needed to serve the
first page).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studyhall.adapters.search import store
from studyhall.adapters.search.spelling import near_terms, one_edit
from studyhall.adapters.search.tokenize import analyzed, terms
from studyhall.core.contracts.search import Candidate, Chunk, Matrix, VectorLike

if TYPE_CHECKING:
    import numpy as np

# Above this many chunks the dense first stage scans a 128-dim projection (top principal
# directions of the corpus vectors) and re-scores its best 4 x pool exactly: a scan of all the
# 384-dim vectors is memory-bound (~150 MB per question at 100k chunks).
PROJECT_ABOVE = 20_000
PROJECT_DIMS = 128


class _Source:
    __slots__ = ("chunks", "content_hash", "model_id", "terms", "vectors")

    def __init__(self, chunks: list[Chunk], content_hash: str, vectors: np.ndarray, model_id: str):
        self.chunks = chunks
        self.content_hash = content_hash
        self.vectors = vectors
        self.model_id = model_id
        # Per chunk (BM25 doc ids incl. title/heading, sentence term ids, sentence ends), in the
        # index's vocabulary; computed once, so a rebuild re-tokenizes only changed sources.
        self.terms: list[tuple[list[int], np.ndarray, np.ndarray]] | None = None


class FileSearchIndex:
    def __init__(self, root: Path | None, pool: int = 50) -> None:
        self.root = root
        self.pool = pool  # first-stage hits taken from each of BM25 and dense
        self._lock = threading.RLock()
        self._opened: dict[str, _Source] | None = {} if root is None else None  # see _sources
        self._dropped: list[str] = []
        self._dirty = True  # so _rebuild() sets the arrays below before any query reads them
        self._chunks: list[Chunk] = []
        self._owner: np.ndarray
        self._source_ids: list[str] = []
        self._matrix: np.ndarray
        self._basis: np.ndarray | None = None  # dims x PROJECT_DIMS, for large corpora
        self._basis_size = 0
        self._model_id = ""
        self._projected: np.ndarray | None = None
        self._bm25: Any = None  # bm25s.BM25, imported on first query (it pulls in scipy)
        self._vocab: dict[str, int] = {}
        self._idf: np.ndarray
        self._df: np.ndarray
        # Indexed terms by (first letter, length), built on the first typo check after a rebuild.
        self._near: dict[tuple[str, int], list[str]] | None = None
        # Per chunk: its term ids, sentence after sentence, and where each sentence ends.
        self._terms: list[tuple[np.ndarray, np.ndarray]] = []

    # --- persistence ---------------------------------------------------------------------

    @property
    def _dir(self) -> Path:
        assert self.root is not None
        return self.root / "sources"

    @property
    def _sources(self) -> dict[str, _Source]:
        # Read on first use, not when the app starts (that would read every source's vectors).
        if self._opened is None:
            with self._lock:
                if self._opened is None:
                    found, self._dropped = store.load_all(self._dir)
                    self._opened = {
                        sid: _Source(chunks, content_hash, vectors, model_id)
                        for sid, (chunks, content_hash, vectors, model_id) in found.items()
                    }
        return self._opened

    @property
    def dropped(self) -> list[str]:
        """Files found broken on load (re-import fixes them)."""
        _ = self._sources
        return self._dropped

    def _save(self, source_id: str, src: _Source) -> None:
        if self.root is not None:
            store.save(self._dir, source_id, src.chunks, src.content_hash, src.vectors, src.model_id)

    # --- SearchIndex port ----------------------------------------------------------------

    def source_hash(self, source_id: str) -> str | None:
        src = self._sources.get(source_id)
        return src.content_hash if src else None

    def upsert(self, source_id: str, content_hash: str, chunks: Sequence[Chunk],
               vectors: Sequence[VectorLike] | Matrix, model_id: str) -> None:
        import numpy as np

        matrix = np.asarray(vectors, dtype=np.float32).reshape(len(chunks), -1)
        if len(matrix) != len(chunks):
            raise ValueError("one vector per chunk")
        src = _Source(list(chunks), content_hash, matrix, model_id)
        with self._lock:
            self._save(source_id, src)
            self._sources[source_id] = src
            self._dirty = True

    def remove(self, source_id: str) -> None:
        with self._lock:
            if self._sources.pop(source_id, None) is None:
                return
            self._dirty = True
            if self.root is not None:
                store.delete(self._dir, source_id)

    def source_ids(self) -> list[str]:
        return sorted(self._sources)

    def chunks(self, source_id: str) -> list[Chunk]:
        src = self._sources.get(source_id)
        return list(src.chunks) if src else []

    def source_model(self, source_id: str) -> str | None:
        src = self._sources.get(source_id)
        if src is None:
            return None
        return src.model_id if src.vectors.size else ""

    def size(self) -> int:
        return sum(len(s.chunks) for s in self._sources.values())

    def vector_models(self) -> dict[str, int]:
        with self._lock:
            counts: dict[str, int] = {}
            for src in self._sources.values():
                if src.vectors.size:
                    counts[src.model_id] = counts.get(src.model_id, 0) + len(src.chunks)
            return counts

    def vector_model(self) -> str:
        # The model most chunks were embedded with; ties go to the greater id (deterministic).
        counts = self.vector_models()
        return max(counts, key=lambda m: (counts[m], m)) if counts else ""

    def likely_typos(self, query: str) -> list[str]:
        with self._lock:
            if self._dirty:
                self._rebuild()
            if self._near is None:
                # (bm25s may add its own entries to the vocabulary: those have no df.)
                self._near = near_terms(t for t in self._vocab if self._known(t))
            return [word for word, term in analyzed(query)
                    if len(term) >= 4 and term.isalpha() and not self._known(term)
                    and any(one_edit(term, t) for t in _neighbours(self._near, term))]

    def _known(self, term: str) -> bool:
        i = self._vocab.get(term)
        return i is not None and i < len(self._df) and self._df[i] > 0

    # --- query -----------------------------------------------------------------------------

    def _rebuild(self) -> None:
        import numpy as np

        ids = sorted(self._sources)
        chunks: list[Chunk] = []
        owner: list[int] = []
        mats = []
        for n, sid in enumerate(ids):
            src = self._sources[sid]
            chunks.extend(src.chunks)
            owner.extend([n] * len(src.chunks))
            mats.append(src.vectors)
        # Vectors of the corpus's main model only: a source indexed without vectors, or with
        # another model's, counts as cosine 0 until it is re-indexed (import does that).
        model = self.vector_model()
        dim = next((self._sources[s].vectors.shape[1] for s in ids
                    if self._sources[s].model_id == model and self._sources[s].vectors.size), 0)
        self._model_id = model
        self._matrix = np.vstack([
            m if (m.shape[1] == dim and self._sources[sid].model_id == model) else np.zeros((len(m), dim), np.float32)
            for sid, m in zip(ids, mats)
        ]) if mats else np.zeros((0, 0), np.float32)
        self._projected = None
        if len(chunks) > PROJECT_ABOVE and self._matrix.shape[1] > PROJECT_DIMS:
            # The basis is refitted only when the corpus grew or shrank by a fifth since.
            if self._basis is None or self._basis.shape[0] != self._matrix.shape[1] or not (
                0.8 < len(chunks) / max(self._basis_size, 1) < 1.25
            ):
                step = max(1, len(chunks) // 20_000)  # a deterministic sample is enough
                _, _, vt = np.linalg.svd(self._matrix[::step], full_matrices=False)
                self._basis = np.ascontiguousarray(vt[:PROJECT_DIMS].T)
                self._basis_size = len(chunks)
            self._projected = np.ascontiguousarray(self._matrix @ self._basis)
        else:
            self._basis = None
        self._chunks, self._source_ids = chunks, ids
        self._owner = np.asarray(owner, dtype=np.int32)
        vocab = self._vocab  # append-only: ids stay valid across rebuilds
        docs: list[list[int]] = []
        per_chunk: list[tuple[np.ndarray, np.ndarray]] = []
        for sid in ids:
            src = self._sources[sid]
            if src.terms is None:
                src.terms = [_chunk_terms(c, vocab) for c in src.chunks]
            for doc, flat, ends in src.terms:
                docs.append(doc)
                per_chunk.append((flat, ends))
        lengths = np.fromiter((len(d) for d in docs), dtype=np.int64, count=len(docs))
        flat_docs = (np.concatenate([np.asarray(d, dtype=np.int64) for d in docs])
                     if docs else np.zeros(0, dtype=np.int64))
        owners = np.repeat(np.arange(len(docs), dtype=np.int64), lengths)
        pairs = np.sort(owners * max(len(vocab), 1) + flat_docs)
        pairs = pairs[np.r_[True, pairs[1:] != pairs[:-1]]] if len(pairs) else pairs  # (doc, term) once
        df = np.bincount(pairs % max(len(vocab), 1), minlength=len(vocab)).astype(np.float64)
        n = max(len(chunks), 1)
        self._idf = np.log1p((n - df + 0.5) / (df + 0.5)).astype(np.float32)
        self._df = df
        self._near = None
        self._terms = per_chunk
        self._bm25 = None
        if chunks:
            import bm25s

            bm25 = bm25s.BM25(k1=1.2, b=0.75)
            bm25.index(bm25s.tokenization.Tokenized(ids=docs, vocab=vocab), show_progress=False)
            self._bm25 = bm25
        self._dirty = False

    def _coverage(self, i: int, wanted: np.ndarray, total: float) -> float:
        """The IDF share of the query's terms found together in one sentence of chunk ``i``."""
        import numpy as np

        flat, ends = self._terms[i]
        if not len(flat):
            return 0.0
        pos = np.flatnonzero(wanted[flat])
        if not len(pos):
            return 0.0
        sentence = np.searchsorted(ends, pos, side="right").astype(np.int64)
        v = len(wanted)
        pairs = np.unique(sentence * v + flat[pos])  # each query term once per sentence
        sums = np.bincount(pairs // v, weights=self._idf[pairs % v])
        return float(sums.max()) / total

    def candidates(self, query: str, vector: VectorLike | None, *, limit: int,
                   source_id: str | None = None, model_id: str | None = None) -> list[Candidate]:
        import numpy as np

        with self._lock:
            if self._dirty:
                self._rebuild()
            n = len(self._chunks)
            if n == 0:
                return []
            mask = None
            if source_id is not None:
                if source_id not in self._sources:
                    return []
                mask = self._owner == self._source_ids.index(source_id)
            qterms = terms(query)
            lexical = np.zeros(n, dtype=np.float32)
            known = [self._vocab[t] for t in qterms if t in self._vocab]
            if known and self._bm25 is not None:
                lexical = self._bm25.get_scores(known).astype(np.float32)
            pool = max(limit, self.pool)
            picked = set(_top(lexical, pool, mask, positive=True))
            # Never compare vectors of two models: same length is not same space.
            use_dense = (vector is not None and self._matrix.shape[1] == len(vector)
                         and (model_id is None or model_id == self._model_id))
            if use_dense:
                q = np.asarray(vector, dtype=np.float32)
                if self._projected is not None and self._basis is not None:
                    rough = np.asarray(_top(self._projected @ (q @ self._basis), 4 * pool, mask, positive=False))
                    exact = self._matrix[rough] @ q if len(rough) else np.zeros(0, np.float32)
                    picked |= {int(rough[j]) for j in _top(exact, pool, None, positive=False)}
                else:
                    picked |= set(_top(self._matrix @ q, pool, mask, positive=False))
            order = sorted(picked)
            dense = dict(zip(order, (self._matrix[order] @ q).tolist())) if use_dense and order else {}
            query_ids = np.asarray(sorted(set(known)), dtype=np.int32)
            wanted = np.zeros(len(self._vocab), dtype=bool)
            wanted[query_ids] = True
            # Query terms the corpus never saw still count in the total (as the rarest terms).
            unseen = len({t for t in qterms if t not in self._vocab})
            total = float(self._idf[query_ids].sum()) + unseen * float(np.log1p((n + 0.5) / 0.5)) or 1.0
            out = []
            for i in order:
                chunk = self._chunks[i]
                signals = {"bm25": float(lexical[i]), "coverage": self._coverage(i, wanted, total)}
                if use_dense:
                    signals["dense"] = float(dense[i])
                out.append(Candidate(chunk, signals))
            return out


def _chunk_terms(chunk: Chunk, vocab: dict[str, int]) -> tuple[list[int], np.ndarray, np.ndarray]:
    # Title and heading count for BM25 (a field match); sentences also feed coverage.
    import numpy as np

    head = [vocab.setdefault(w, len(vocab)) for w in terms(" ".join(filter(None, (chunk.title, chunk.heading))))]
    flat: list[int] = []
    ends: list[int] = []
    for sentence in chunk.sentences or (chunk.text,):
        flat.extend(vocab.setdefault(w, len(vocab)) for w in terms(sentence))
        ends.append(len(flat))
    return head + flat, np.asarray(flat, dtype=np.int32), np.asarray(ends, dtype=np.int32)


def _neighbours(near: dict[tuple[str, int], list[str]], term: str) -> list[str]:
    return [t for n in (len(term) - 1, len(term), len(term) + 1) for t in near.get((term[0], n), ())]


def _top(scores: np.ndarray, k: int, mask: np.ndarray | None, positive: bool) -> list[int]:
    import numpy as np

    s = scores if mask is None else np.where(mask, scores, -np.inf)
    k = min(k, len(s))
    idx = np.argpartition(-s, k - 1)[:k] if k < len(s) else np.arange(len(s))
    return [int(i) for i in idx if np.isfinite(s[i]) and (not positive or s[i] > 0)]
