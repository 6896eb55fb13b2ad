"""Notes import benchmark: a generated Obsidian vault imported offline, with and without embeddings.

    .venv/bin/python bench/import.py [--notes 2000] [--seed 7]

Prints the end-to-end seconds for the vault and notes/s for the import without embeddings (structural extraction, links, ledgers) and
with the bundled MiniLM embeddings; the raw encoder throughput on exactly the texts the import
embedded (as notes/s: notes ÷ encoder seconds); their ratio (issue 7 target ≥ 0.8); the graph
upkeep that follows (clusters, labels, layout) on its own line; and the peak RSS. The model is
loaded before anything is timed, so no timing includes the one-off model load.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

WORDS = ("cell membrane enzyme protein energy gradient signal neuron synapse voltage channel "  # noqa: SIM905
         "receptor ligand kinase pathway glucose oxygen carbon nitrogen molecule atom bond "
         "orbital electron proton neutron wave particle field force mass charge current "
         "circuit resistor capacitor matrix vector graph tree node edge path cycle proof "
         "theorem lemma limit integral derivative series function variable").split()
VERBS = ("regulates binds transports converts stores releases measures encodes limits "  # noqa: SIM905
         "stabilizes drives inhibits amplifies carries balances").split()


def sentence(rng: random.Random, links: list[str]) -> str:
    a, b, c = rng.sample(WORDS, 3)
    tail = f" through the [[{rng.choice(links)}]]" if links and rng.random() < 0.3 else ""
    return f"The {a} {rng.choice(VERBS)} the {b} of each {c}{tail}."


def generate(root: Path, notes: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    names = [f"{rng.choice(WORDS).title()} {rng.choice(WORDS)} {i:04d}" for i in range(notes)]
    (root / ".obsidian").mkdir(parents=True, exist_ok=True)
    for i, name in enumerate(names):
        folder = root / f"area{i % 20:02d}"
        folder.mkdir(exist_ok=True)
        others = rng.sample(names, 4)
        lines = ["---", f"tags: [{rng.choice(WORDS)}, {rng.choice(WORDS)}]",
                 f"aliases: [Alias {i:04d}]", "---", f"# {name}", "",
                 " ".join(sentence(rng, others) for _ in range(rng.randint(2, 4))), ""]
        for s in range(rng.randint(1, 3)):
            lines += [f"## {rng.choice(WORDS).title()} {s}", ""]
            lines += [f"- {sentence(rng, others)}" for _ in range(rng.randint(2, 4))]
            lines += ["", sentence(rng, others), ""]
        if rng.random() < 0.2:
            lines += ["```python", "x = '[[not a link]]'", "```", ""]
        (folder / f"{name}.md").write_text("\n".join(lines), encoding="utf-8")
    return names


async def timed_import(vault: Path, data: Path, embed: bool, encoder: object | None):
    os.environ["STUDYHALL_DATA_DIR"] = str(data)
    from dataclasses import replace

    from studyhall.server.app import build_runtime, build_services
    from studyhall.server.config import load_config

    services = build_services(load_config())
    if encoder is not None:
        # the already-loaded MiniLM (the same class the app wires)
        services = replace(services, embedder=encoder)
    importer = build_runtime(services).imports.notes
    marks: dict[str, float] = {}
    start = time.perf_counter()

    def progress(p) -> None:  # type: ignore[no-untyped-def]
        marks.setdefault(p.stage, time.perf_counter() - start)

    report = await importer.run(str(vault), mode="structural", embed=embed, progress=progress)
    return report, time.perf_counter() - start, marks, services


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    from studyhall.adapters.embed.minilm import MiniLMEmbedder
    from studyhall.core.library.graph.snapshot import graph_snapshot

    with tempfile.TemporaryDirectory(prefix="studyhall-bench-") as tmp:
        base = Path(tmp)
        vault = base / "Vault"
        generate(vault, args.notes, args.seed)
        print(f"vault: {args.notes} notes, {sum(1 for _ in vault.rglob('*.md'))} files")

        plain, plain_s, _, _ = await timed_import(vault, base / "plain", False, None)
        print(f"import without embeddings: {plain_s:7.2f} s  {args.notes / plain_s:8.1f} notes/s"
              f"  ({plain.propositions} propositions, {plain.edges} edges)")

        encoder = MiniLMEmbedder()
        await encoder.warm_up()
        report, total_s, marks, services = await timed_import(vault, base / "embed", True, encoder)
        upkeep = report.upkeep
        assert upkeep is not None
        # Through embeddings: extraction, links and every node vector (the upkeep's embedding
        # step finishes whatever the background embedder had not done yet).
        upkeep_rest = upkeep.seconds.get("clustering", 0.0) + upkeep.seconds.get("layout", 0.0)
        import_s = total_s - upkeep_rest
        texts = sorted({n.text for n in graph_snapshot(services.graph_store).nodes})
        # The machine may be shared: time the encoder twice, around nothing else, and average.
        runs = []
        for _ in range(2):
            started = time.perf_counter()
            await encoder.embed(texts)
            runs.append(time.perf_counter() - started)
        encode_s = sum(runs) / len(runs)
        rate, raw = args.notes / import_s, args.notes / encode_s
        print(f"end to end (the vault):    {total_s:7.2f} s  {args.notes / total_s:8.1f} notes/s"
              "  (scan, extract, link, embed, cluster, layout)")
        print(f"import with embeddings:    {import_s:7.2f} s  {rate:8.1f} notes/s"
              f"  ({upkeep.cache_misses} texts embedded, cache hit rate "
              f"{(upkeep.hit_rate or 0):.0%})")
        print(f"raw encoder, same texts:   {encode_s:7.2f} s  {raw:8.1f} notes/s"
              f"  ({len(texts) / encode_s:.0f} texts/s)")
        print(f"ratio import/encoder:      {rate / raw:7.2f}   (target >= 0.8)")
        print(f"graph upkeep after import: clusters {upkeep.seconds.get('clustering', 0):.2f} s "
              f"({upkeep.clusters} clusters), layout {upkeep.seconds.get('layout', 0):.2f} s "
              f"({upkeep.positioned} nodes)")
        print(f"stages (s from start): {', '.join(f'{k} {v:.1f}' for k, v in marks.items())}")
        print(f"load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(f"peak RSS: {peak / 1024:.0f} MB" if sys.platform != "darwin"
              else f"peak RSS: {peak / 1024 / 1024:.0f} MB")


if __name__ == "__main__":
    asyncio.run(main())
