"""Clustering benchmark: ``cluster_vectors`` on N generated unit vectors, before and after.

    .venv/bin/python bench/clusters.py [--sizes 2000 10000 27000] [--shapes topics fields]
                                       [--before REV] [--dim 384] [--sklearn]

"before" is the package as it was at the git revision ``--before`` (default: the hand-written
nearest-neighbour chain in numpy and Python), "after" the working tree's (scipy's average
linkage); ``--sklearn`` adds the working tree's module with each component's linkage done by
scikit-learn's ``AgglomerativeClustering`` instead. Each run is its own process, so its peak RSS
is its own: "peak" is the process's high-water mark, "+mem" how far clustering raised it above
what the process held with the vectors loaded; importing scipy (or scikit-learn), paid once per
process, is timed apart. The partitions are compared: the bench says so if they differ.

Two shapes of data, both vectors of MiniLM's width (384) as the embedding cache holds them
(one float32 array per node):

- topics: groups of ~8 nodes around unrelated centres — many small components;
- fields: three broad fields, each of topics of ~8 nodes. Across topics of one field some pairs
  pass the 0.6 threshold, so a field is one connected component of thousands of nodes (what a
  notes import with a narrow vocabulary gives): the expensive case, clustered in slices of
  ``MAX_COMPONENT`` nodes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from before import BEFORE, before_tree, env_for

MODULE = "src/core/library/upkeep/clusters.py"


def generate(n: int, shape: str, dim: int, seed: int = 7) -> Any:
    """``n`` unit-norm float32 vectors of the given shape (see the module docstring)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    per_topic = 8
    topics = max(1, n // per_topic)
    if shape == "topics":
        centres = rng.normal(size=(topics, dim))
        noise = 0.65  # two members of a topic: cosine ≈ 1 / (1 + 0.65²) ≈ 0.7
    else:
        fields = rng.normal(size=(3, dim))
        field_of = rng.integers(0, 3, size=topics)
        centres = fields[field_of] + rng.normal(scale=0.8, size=(topics, dim))
        noise = 0.45  # same topic ≈ 0.89, same field ≈ 0.54 (the tail of it above 0.6)
    x = centres[rng.integers(0, topics, size=n)] + rng.normal(scale=noise, size=(n, dim))
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    return x.astype(np.float32)


def _load(implementation: str) -> ModuleType:
    # "before" runs in a child whose ``studyhall`` is the old revision's (see ``run``).
    from studyhall.core.library.upkeep import clusters

    if implementation == "sklearn":
        clusters._average_linkage = _sklearn_linkage  # type: ignore[attr-defined]
    return clusters


def _sklearn_linkage(x: Any, threshold: float) -> list[list[int]]:
    """One component's average linkage by scikit-learn (for the comparison only)."""
    from sklearn.cluster import AgglomerativeClustering

    if x.shape[0] == 1:
        return [[0]]
    labels = AgglomerativeClustering(n_clusters=None, metric="cosine", linkage="average",
                                     distance_threshold=1.0 - threshold).fit_predict(x)
    groups: dict[int, list[int]] = {}
    for i, label in enumerate(labels.tolist()):
        groups.setdefault(label, []).append(i)
    return list(groups.values())


def _peak_mb() -> float:
    """This process's peak RSS. Linux's VmHWM starts afresh at exec; ``ru_maxrss`` would carry
    the forking parent's (the generated data) into the child."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child(implementation: str, data: Path) -> None:
    import numpy as np

    module = _load(implementation)
    # scipy / scikit-learn load once per process, on the first clustering: timed apart.
    imported = time.perf_counter()
    if implementation != "before":
        import scipy.cluster.hierarchy  # noqa: F401
    if implementation == "sklearn":
        import sklearn.cluster  # noqa: F401
    imported = time.perf_counter() - imported
    x = np.load(data)
    vectors = {f"n_{i:06d}": x[i] for i in range(x.shape[0])}  # as the vector cache hands them
    base = _peak_mb()
    wall, cpu = time.perf_counter(), time.process_time()
    groups = module.cluster_vectors(vectors)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    peak = _peak_mb()
    digest = hashlib.sha256(json.dumps(groups).encode()).hexdigest()[:12]
    print(json.dumps({"wall": wall, "cpu": cpu, "peak_mb": peak,
                      "grown_mb": peak - base, "groups": len(groups),
                      "clustered": sum(map(len, groups)), "digest": digest, "import": imported}))


def run(implementation: str, tree: Path, data: Path) -> dict[str, Any]:
    out = subprocess.run([sys.executable, __file__, "--child", implementation, str(data)],
                         check=True, capture_output=True, text=True,
                         env=env_for(tree if implementation == "before" else None))
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[2000, 10_000, 27_000])
    parser.add_argument("--shapes", nargs="+", default=["topics", "fields"],
                        choices=["topics", "fields"])
    parser.add_argument("--before", default=BEFORE, help="git revision of the old module")
    parser.add_argument("--dim", type=int, default=384)
    parser.add_argument("--sklearn", action="store_true", help="also time scikit-learn")
    parser.add_argument("--only", choices=["before", "after", "sklearn"], nargs="+")
    parser.add_argument("--child", nargs=2, metavar=("IMPLEMENTATION", "NPY"), help="internal")
    args = parser.parse_args()
    if args.child:
        child(args.child[0], Path(args.child[1]))
        return

    import numpy as np

    implementations = args.only or ["before", "after"] + (["sklearn"] if args.sklearn else [])
    print(f"{'shape':7} {'N':>6} {'impl':8} {'wall s':>7} {'cpu s':>7} {'peak MB':>8} "
          f"{'+mem MB':>8} {'clusters':>8}  partition")
    tree = before_tree(args.before)
    with tempfile.TemporaryDirectory(prefix="studyhall-bench-") as tmp:
        for shape in args.shapes:
            for n in args.sizes:
                data = Path(tmp) / f"{shape}-{n}.npy"
                np.save(data, generate(n, shape, args.dim))
                digests = set()
                for implementation in implementations:
                    r = run(implementation, tree, data)
                    digests.add(r["digest"])
                    print(f"{shape:7} {n:>6} {implementation:8} {r['wall']:7.2f} {r['cpu']:7.2f} "
                          f"{r['peak_mb']:8.0f} {r['grown_mb']:8.0f} {r['groups']:8}  "
                          f"{r['digest']} ({r['clustered']} nodes)"
                          + (f", +{r['import']:.2f} s import once" if r["import"] > 0.01 else ""),
                          flush=True)
                if len(digests) > 1:
                    print(f"{shape:7} {n:>6} PARTITIONS DIFFER", flush=True)


if __name__ == "__main__":
    main()
