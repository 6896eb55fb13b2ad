"""Where the design card's libraries win, and where they do not: timings that back each choice.

    .venv/bin/python bench/libraries.py [--before REV] [--nodes 10000] [--only SECTION ...]

Sections (CPU milliseconds, best of a few runs; a "before"/"after" pair runs the same code in two
child processes, one importing the package as it was at ``--before``):

- plan:    the plan DAG check of a 200-node plan: the hand-written search (kept) against the
           same check written with networkx, and what importing networkx costs a first check.
- png:     ``colour_stats`` of a 1280x800 screenshot: the hand-written decoder before, Pillow
           after.
- ledger:  one ledger record's JSON paths, pydantic-core (what the ledger uses) against orjson:
           writing, the append's read-back guard, and a batch read.
- body:    the ``GET /api/graph`` body of a generated graph: building the dicts, encoding them
           with the standard library and with orjson.
- graphml: GraphML of the same graph, the hand-written writer against networkx's.
"""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from before import BEFORE, before_tree, env_for

SECTIONS = ("plan", "png", "ledger", "body", "graphml")


def best_ms(fn: Callable[[], Any], runs: int = 5) -> float:
    best = float("inf")
    for _ in range(runs):
        started = time.process_time()
        fn()
        best = min(best, time.process_time() - started)
    return best * 1000


# --- before/after children ----------------------------------------------------------------

def _networkx_cycle_errors(nodes: list[str], edges: list[Any]) -> list[tuple[int, str]]:
    """The plan check written with networkx, reporting what ``cycle_errors`` reports."""
    import networkx as nx

    at: dict[tuple[str, str], int] = {}
    for e in edges:
        at.setdefault((e.source, e.target), e.pos)
    graph: Any = nx.DiGraph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from(at)
    if nx.is_directed_acyclic_graph(graph):
        return []
    errors, seen, path, index = [], set(), [], {}
    for source, target, kind in nx.dfs_labeled_edges(graph):
        if kind == "forward":
            index[target] = len(path)
            path.append(target)
        elif kind == "reverse":
            del index[path.pop()]
        elif target in index:
            cycle = path[index[target]:]
            start = cycle.index(min(cycle))
            key = tuple(cycle[start:] + cycle[:start])
            if key not in seen:
                seen.add(key)
                errors.append((at[source, target], " -> ".join([*cycle, target])))
    return errors


def plan_section() -> None:
    from studyhall.core.classroom.plan_validate import EdgeAt, cycle_errors

    def edges(extra: list[tuple[int, int]]) -> list[Any]:
        chain = [(i, i + 1) for i in range(199)]
        fan = [(i, (i * 7) % 200) for i in range(200) if (i * 7) % 200 > i]
        return [EdgeAt(f"n{a}", f"n{b}", None, "arrow", k)
                for k, (a, b) in enumerate(chain + fan + extra)]

    nodes = [f"n{i}" for i in range(200)]
    dag, cyclic = edges([]), edges([(150, 3), (120, 40)])
    probe = "import time; t = time.perf_counter(); import networkx; print(time.perf_counter() - t)"
    imported = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True,
                              text=True).stdout
    ours = [(e.pos, e.message.split("cycle: ")[1].split(";")[0])
            for e in cycle_errors(nodes, cyclic)]
    assert ours == _networkx_cycle_errors(nodes, cyclic), "the two checks disagree"
    print("plan DAG check, 200 nodes, ~300 edges (CPU ms):")
    for what, plan in (("a DAG", dag), ("two cycles", cyclic)):
        ours_ms = best_ms(lambda plan=plan: cycle_errors(nodes, plan), 50)
        theirs_ms = best_ms(lambda plan=plan: _networkx_cycle_errors(nodes, plan), 50)
        print(f"  {what:12} hand-written {ours_ms:6.2f}   networkx {theirs_ms:6.2f}")
    print(f"  importing networkx (a fresh process, wall): {float(imported) * 1000:.0f} ms")


def screenshot() -> bytes:
    """A 1280x800 RGBA picture of a diagram: white, a few boxes, lines and noisy 'text'."""
    import numpy as np
    from PIL import Image, ImageDraw

    image = Image.new("RGBA", (1280, 800), "white")
    draw = ImageDraw.Draw(image)
    rng = np.random.default_rng(3)
    for i in range(12):
        x, y = int(rng.integers(0, 1100)), int(rng.integers(0, 650))
        draw.rectangle((x, y, x + 160, y + 90), outline=(30, 60, 200, 255), width=3,
                       fill=(220, 230, 255, 255) if i % 2 else None)
        draw.line((x + 80, y + 90, x + 80 + int(rng.integers(-200, 200)), y + 200),
                  fill=(90, 90, 90, 255), width=2)
        for row in range(3):  # "text": dark speckles anti-aliased into the fill
            for col in range(0, 120, 6):
                shade = int(rng.integers(0, 120))
                draw.point((x + 20 + col, y + 25 + 20 * row), fill=(shade, shade, shade, 255))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def child_png(path: Path) -> dict[str, float]:
    from studyhall.adapters.sandbox.png import colour_stats

    data = path.read_bytes()
    return {"colour_stats 1280x800": best_ms(lambda: colour_stats(data), 3),
            "result": list(colour_stats(data))}  # type: ignore[dict-item]


# --- alternatives in one process --------------------------------------------------------------

def ledger_section() -> None:
    import orjson
    from pydantic import TypeAdapter
    from studyhall.core.contracts.graph import PropositionCreated

    sys.path.insert(0, str(Path(__file__).parent))
    from ledger import record

    records = [record(i) for i in range(20_000)]
    lines = [r.model_dump_json(by_alias=True, warnings=False).encode() for r in records]
    many = TypeAdapter(list[PropositionCreated])
    blob = b"[" + b",".join(lines) + b"]"
    model = PropositionCreated
    rows = [
        ("write a record", "model_dump_json",
         lambda: [r.model_dump_json(by_alias=True, warnings=False) for r in records],
         "orjson.dumps(model_dump)",
         lambda: [orjson.dumps(r.model_dump(by_alias=True, mode="json")) for r in records]),
        ("append guard: read it back", "model_validate_json",
         lambda: [model.model_validate_json(line) for line in lines],
         "model_validate(orjson.loads)",
         lambda: [model.model_validate(orjson.loads(line)) for line in lines]),
        ("batch read (a ledger chunk)", "validate_json(list)",
         lambda: many.validate_json(blob),
         "validate_python(orjson.loads)",
         lambda: many.validate_python(orjson.loads(blob))),
    ]
    print(f"ledger JSON, {len(records)} PropositionCreated records (CPU ms):")
    for what, a_name, a, b_name, b in rows:
        print(f"  {what:28} {a_name:22} {best_ms(a, 3):8.1f}   {b_name:30} {best_ms(b, 3):8.1f}")


def _graph(nodes: int) -> Any:
    sys.path.insert(0, str(Path(__file__).parent))
    from graph import generate
    from studyhall.adapters.store import JsonlGraphStore
    from studyhall.server.runtime.library.graph_reader import GraphReader

    root = Path(tempfile.mkdtemp(prefix="studyhall-bench-")) / "graph"
    generate(nodes, root)
    snapshot = GraphReader(JsonlGraphStore(root), save_after=10**15).snapshot()
    for node in snapshot.nodes:  # decode every trail once, as the first body does
        node.rows()
    return snapshot


def body_section(snapshot: Any) -> None:
    import orjson
    from studyhall.core.library.graph.interchange import snapshot_to_dict
    from studyhall.server.http.graph_body import GraphBody

    data = snapshot_to_dict(snapshot)
    encode = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode
    warm = GraphBody()
    warm.render(snapshot)
    rows = (
        ("build the dicts (snapshot_to_dict)", lambda: snapshot_to_dict(snapshot)),
        ("encode them: json (stdlib)", lambda: encode(data).encode()),
        ("encode them: orjson", lambda: orjson.dumps(data)),
        ("whole body from scratch, orjson", lambda: orjson.dumps(snapshot_to_dict(snapshot))),
        ("warm GraphBody (per-node cache), orjson", lambda: warm.render(snapshot)),
    )
    print(f"graph body, {len(snapshot.nodes)} nodes (CPU ms):")
    for what, fn in rows:
        print(f"  {what:40} {best_ms(fn, 3):8.1f}")


def graphml_section(snapshot: Any) -> None:
    import networkx as nx
    from studyhall.core.library.graph.interchange import snapshot_to_graphml

    def with_networkx() -> str:
        graph: Any = nx.MultiDiGraph(id="studyhall")
        clusters = {nid: c for c in snapshot.clusters for nid in c.node_ids}
        for node in snapshot.nodes:
            data: dict[str, Any] = {"text": node.text, "state": node.state}
            if node.score.value is not None:
                data["score"] = node.score.value
            data.update(evidence_count=len(node.evidence), quiz_count=len(node.quiz),
                        sources=" ".join(node.sources))
            if node.id in clusters:
                data["cluster"] = clusters[node.id].id
            graph.add_node(node.id, **data)
        for edge in snapshot.edges:
            graph.add_edge(edge.source, edge.target, key=edge.id, kind=edge.kind)
        return "\n".join(nx.generate_graphml(graph, named_key_ids=True))

    ours, theirs = snapshot_to_graphml(snapshot), with_networkx()
    print(f"GraphML, {len(snapshot.nodes)} nodes (CPU ms):")
    print(f"  hand-written  {best_ms(lambda: snapshot_to_graphml(snapshot), 3):8.1f}")
    print(f"  networkx      {best_ms(with_networkx, 3):8.1f}")
    declared = [line.strip() for line in theirs.splitlines() if "<key " in line]
    print("  networkx declares " + "; ".join(declared[:3]) + " …"
          if declared else "  networkx declares no keys")
    print(f"  (hand-written declares {ours.count('<key ')} keys, networkx {len(declared)})")


# --- report ---------------------------------------------------------------------------------

def run_child(section: str, tree: Path | None, arg: str = "") -> dict[str, Any]:
    out = subprocess.run([sys.executable, __file__, "--child", section, arg], check=True,
                         capture_output=True, text=True, env=env_for(tree))
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def compare(title: str, section: str, tree: Path, rev: str, arg: str = "") -> None:
    before, after = run_child(section, tree, arg), run_child(section, None, arg)
    print(f"{title} (ms; CPU unless marked wall):")
    for key, value in after.items():
        old = before.get(key)
        if isinstance(value, float) and isinstance(old, float):
            print(f"  {key:26} before ({rev}) {old:8.2f}   after {value:8.2f}   "
                  f"x{old / value if value else float('inf'):.1f}")
        else:
            print(f"  {key:26} before ({rev}) {old}   after {value}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default=BEFORE)
    parser.add_argument("--nodes", type=int, default=10_000)
    parser.add_argument("--only", nargs="+", choices=SECTIONS, default=list(SECTIONS))
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child_png(Path(args.child[1]))))
        return
    if "plan" in args.only:
        plan_section()
    if "png" in args.only:
        tree = before_tree(args.before)
        with tempfile.NamedTemporaryFile(suffix=".png") as png:
            png.write(screenshot())
            png.flush()
            compare("PNG colour check", "png", tree, args.before, png.name)
    if "ledger" in args.only:
        ledger_section()
    if {"body", "graphml"} & set(args.only):
        snapshot = _graph(args.nodes)
        if "body" in args.only:
            body_section(snapshot)
        if "graphml" in args.only:
            graphml_section(snapshot)


if __name__ == "__main__":
    main()
