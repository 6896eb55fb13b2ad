"""Where session findings land: precision and recall of the content-word rule and of the
bundled MiniLM's cosine at their calibrated minimums, on the labelled finding/topic pairs (each
pair's scores printed, to re-calibrate: a minimum between the highest pair apart and the lowest
that belongs), then on a real-shaped vault's graph (model-free import of ``--notes`` notes) for
a session's findings, against the old rule (the first lexical neighbour, no minimum), and
with the candidates the graph search adds by meaning (as the app's chat extraction does).

    .venv/bin/python bench/finding_placement.py [--notes 173]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.support

# A session's findings on the vault, each with the word its topic must name (None: it belongs
# to no note, so to the session's topic). The apart ones share a word every note uses.
SESSION = [
    ("Alias settings let you give a note another name", "alias"),
    ("Callout settings decide how a callout box is drawn", "callout"),
    ("Hotkey settings map a key combination to a command", "hotkey"),
    ("Bookmark settings keep a list of bookmarked notes", "bookmark"),
    ("Canvas settings change how cards are laid out on a canvas", "canvas"),
    ("Car settings adjust the mirrors and the seat", None),  # "settings": in every note
    ("A bank vault stores gold behind a steel door", None),  # "vault"
    ("The guide at the museum spoke three languages", None),  # "guide": in every title
    ("Whales sing underwater", None),
    ("Sourdough starter needs daily feeding", None),
]


def _judge(placed: list[str | None], label: str) -> None:
    right = sum((want is None and got is None) or (want is not None and got is not None
                                                    and want in got.casefold())
                for (_, want), got in zip(SESSION, placed, strict=True))
    tied_wrong = sum(want is None and got is not None for (_, want), got in zip(SESSION, placed))
    print(f"  {label:26s} right {right}/{len(SESSION)}, apart findings tied to a note "
          f"{tied_wrong}/{sum(w is None for _, w in SESSION)}")
    for (text, want), got in zip(SESSION, placed, strict=True):
        if not ((want is None and got is None) or (want and got and want in got.casefold())):
            print(f"    wrong: {text!r} -> {got!r}")


async def labelled(judges) -> None:
    from tests.support.finding_pairs import APART, BELONG

    pairs = BELONG + APART
    rows = []
    for name, judge in judges:
        scores = await judge.scores(pairs)
        rows.append(scores)
        hits = [s >= judge.minimum for s in scores]
        true, false = sum(hits[: len(BELONG)]), sum(hits[len(BELONG):])
        precision = true / (true + false) if true + false else 1.0
        print(f"{name:7s} minimum {judge.minimum:.2f}: precision {precision:.2f} "
              f"({true}/{true + false}), recall {true}/{len(BELONG)}, "
              f"apart kept apart {len(APART) - false}/{len(APART)}")
    print(f"\n{'words':>6s} {'minilm':>6s}  pair")
    for i, (finding, topic) in enumerate(pairs):
        label = "belong" if i < len(BELONG) else "apart "
        print(f"{rows[0][i]:6.2f} {rows[1][i]:6.2f}  {label} {finding} | {topic}")


async def on_vault(notes: int, judges) -> None:
    from studyhall.core.library.extraction.finding_placement import best_topics
    from studyhall.core.library.extraction.findings import (
        EvidenceClaim,
        ExtractorOutput,
        NodeRef,
        PropositionFinding,
    )
    from studyhall.core.library.extraction.nearest import LexicalNeighbours
    from studyhall.core.library.graph.snapshot import graph_snapshot
    from studyhall.server.app import build_runtime, build_services
    from studyhall.server.config import load_config
    from studyhall.server.runtime.runtime import started

    from tests.support.real_vault import make_real_vault

    with tempfile.TemporaryDirectory() as tmp:
        vault = make_real_vault(Path(tmp) / "Vault", notes=notes)
        services = build_services(load_config(data_dir=Path(tmp) / "data"))
        runtime = build_runtime(services)
        async with started(runtime):
            await runtime.library.import_here(str(vault.root))  # with node vectors
            snapshot = graph_snapshot(services.graph_store)
            # The candidates the app's chat extraction adds by meaning (its own wiring).
            meaning = runtime.library._extraction._by_meaning
            await meaning.nearest(["warm up"], 5)  # the model is loaded once
            searched = time.perf_counter()
            found = await meaning.nearest([t for t, _ in SESSION], 5)
            searched = time.perf_counter() - searched
            by_meaning = dict(zip((t for t, _ in SESSION), found, strict=True))
    print(f"\nvault: {notes} notes, {vault.headings} headings, {len(vault.links)} note links "
          f"-> {len(snapshot.nodes)} nodes, {len(snapshot.edges)} edges; "
          f"{len(SESSION)} session findings, 5 neighbours each")
    finder = LexicalNeighbours([NodeRef(n.id, n.text) for n in snapshot.nodes])
    findings = ExtractorOutput(propositions=tuple(
        PropositionFinding(key=f"f{i}", text=text, evidence=(EvidenceClaim(message_id="m",
                                                                            quote="q"),))
        for i, (text, _) in enumerate(SESSION)))
    near = dict(zip((p.key for p in findings.propositions),
                    await finder.nearest([t for t, _ in SESSION], 5), strict=True))
    _judge([refs[0].text if refs else None for refs in near.values()], "old: first neighbour")
    for name, judge in judges:
        await judge.scores([("warm", "up")])  # the model loads once, not per batch
        start = time.perf_counter()
        best = await best_topics(findings, near, [judge])
        took = (time.perf_counter() - start) * 1000
        placed = [best[p.key].text if p.key in best else None for p in findings.propositions]
        _judge(placed, f"new: {name} ({took:.0f} ms/batch)")
    # With the candidates the graph search finds by meaning (the app's chat kind has them).
    name, judge = judges[-1]
    both = {p.key: list({r.id: r for r in (*near[p.key], *by_meaning[p.text])}.values())
            for p in findings.propositions}
    best = await best_topics(findings, both, [judge])
    _judge([best[p.key].text if p.key in best else None for p in findings.propositions],
           f"new: {name} + by meaning ({searched * 1000:.0f} ms/batch more)")


async def main() -> None:
    from studyhall.adapters.embed.select import local_embedder
    from studyhall.core.library.extraction.finding_placement import (
        EmbeddingLikeness,
        WordLikeness,
    )

    parser = argparse.ArgumentParser()
    parser.add_argument("--notes", type=int, default=173)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as models:
        judges = [("words", WordLikeness()),
                  ("minilm", EmbeddingLikeness(local_embedder(Path(models))))]
        await labelled(judges)
        await on_vault(args.notes, judges)


if __name__ == "__main__":
    asyncio.run(main())
