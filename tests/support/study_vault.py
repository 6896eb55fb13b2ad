"""A learner's study vault: notes on distinct subjects (algorithms, biology, statistics), each
with a definition, a term list, statements, a code block, a callout, an embed, wikilinks (plain,
aliased, to headings) and the boilerplate real vaults repeat in every note ("Status: draft",
"See also [[Index]]") — what the model-free deck must make cards from, and must not make
duplicate or self-answering cards from."""

from __future__ import annotations

from pathlib import Path

from tests.support.notes import write

# title: (folder, definition, [(term, what it is)], [statements], code)
NOTES: dict[str, tuple[str, str, list[tuple[str, str]], list[str], str]] = {
    "Binary heap": ("Algorithms", "A binary heap is a complete binary tree kept in an array.", [
        ("Sift up", "moves a new key towards the root until its parent is smaller"),
        ("Sift down", "moves the root key down until both children are larger")],
        ["Insertion into a heap costs logarithmic time in the number of keys.",
         "The smallest key of a min-heap always sits at the root."], "heapq.heappush(h, 3)"),
    "Dijkstra's algorithm": ("Algorithms", ("Dijkstra's algorithm finds shortest paths from one "
        "source when every edge weight is nonnegative."), [
        ("Relaxation", "lowers a tentative distance when a shorter route is found"),
        ("Frontier", "the vertices whose distance is tentative")],
        ["A priority queue returns the closest unsettled vertex in each round.",
         "Negative weights break the greedy choice, so Bellman-Ford is used instead."],
        "dist[v] = min(dist[v], dist[u] + w)"),
    "Breadth-first search": ("Algorithms", ("Breadth-first search visits vertices in order of "
        "their hop distance from the start."), [
        ("Queue", "holds the discovered vertices whose neighbours are not yet explored")],
        ["On an unweighted graph the first visit of a vertex gives its shortest hop count.",
         "Each vertex and each edge is examined once, so the running time is linear."],
        "queue.append(start)"),
    "Hash table": ("Algorithms", "A hash table maps keys to buckets through a hash function.", [
        ("Collision", "two keys landing in the same bucket"),
        ("Load factor", "stored keys divided by the number of buckets")],
        ["Chaining keeps a small list of entries in every bucket.",
         "Resizing doubles the buckets once the load factor passes three quarters."],
        "table[hash(key) % size]"),
    "Merge sort": ("Algorithms", ("Merge sort splits a list in halves, sorts each half and merges "
        "them."), [("Stability", "equal keys keep their original order")],
        ["Merging two sorted runs walks both runs once.",
         "The recursion depth grows with the logarithm of the input length."],
        "merge(sort(left), sort(right))"),
    "Mitochondria": ("Biology", "Mitochondria are organelles that produce most of the cell's ATP.",
        [("Cristae", "folds of the inner membrane that enlarge its surface"),
         ("Matrix", "the inner space where the Krebs cycle runs")],
        ["Oxidative phosphorylation couples electron transport to ATP synthesis.",
         "Mitochondria carry their own circular genome inherited from the mother."], ""),
    "Photosynthesis": ("Biology", ("Photosynthesis turns light, water and carbon dioxide into "
        "glucose and oxygen."), [("Chlorophyll", "the pigment that absorbs red and blue light"),
                                ("Calvin cycle", "fixes carbon dioxide into sugars")],
        ["The light reactions split water inside the thylakoid membranes.",
         "Stomata close in drought, which slows carbon fixation."], ""),
    "Enzymes": ("Biology", "Enzymes are proteins that speed up reactions without being used up.",
        [("Active site", "the pocket where the substrate binds"),
         ("Denaturation", "loss of shape, and with it function, under heat or extreme pH")],
        ["Competitive inhibitors occupy the active site and block the substrate.",
         "Reaction rate levels off once every enzyme molecule is saturated."], ""),
    "DNA replication": ("Biology", "DNA replication copies both strands before a cell divides.",
        [("Helicase", "unwinds the double helix at the replication fork"),
         ("Okazaki fragments", "short pieces made on the lagging strand")],
        ["Polymerase adds nucleotides only to the three prime end of a strand.",
         "Proofreading removes most mismatched bases as they are added."], ""),
    "Bayes' theorem": ("Statistics", ("Bayes' theorem relates P(A|B) to P(B|A) through the prior "
        "P(A)."), [("Prior", "belief before seeing the evidence"),
                  ("Posterior", "belief after updating on the evidence")],
        ["A rare disease keeps a positive test's posterior low even with an accurate test.",
         "The likelihood says how probable the evidence is under each hypothesis."],
        "posterior = likelihood * prior / evidence"),
    "Confidence interval": ("Statistics", ("A confidence interval is a range that covers the true "
        "parameter in a stated share of repeated samples."), [
        ("Margin of error", "half the width of the interval")],
        ["Larger samples shrink the interval around the estimate.",
         "A ninety-five percent level widens the interval compared with ninety percent."], ""),
    "Linear regression": ("Statistics", ("Linear regression fits a straight line that minimises "
        "squared residuals."), [("Residual", "observed value minus fitted value"),
                               ("Slope", "change in the outcome per unit of the predictor")],
        ["Outliers pull the least-squares line towards themselves.",
         "Correlated predictors inflate the variance of their coefficients."],
        "numpy.polyfit(x, y, 1)"),
}


def _note(title: str, folder: str, definition: str, terms: list[tuple[str, str]],
          statements: list[str], code: str, peers: list[str], i: int) -> str:
    a, b = peers[(i + 1) % len(peers)], peers[(i + 2) % len(peers)]
    lines = ["---", f"tags: [{folder.lower()}, study]", "---", f"# {title}", "",
             "Status: draft, revise before the exam.", "",
             f"{definition} It is often studied with [[{a}]].", "",
             "## Key terms", ""]
    lines += [f"- **{term}**: {what}." for term, what in terms]
    lines += ["", "## What to remember", ""]
    lines += [statements[0], "", "> [!tip] Exam hint", f"> {statements[1]}", ""]
    if code:
        lines += ["```python", code, "```", ""]
    lines += [f"![[{title.lower().replace(' ', '-')}.png]]", "",
              f"Compare with [[{b}#Key terms|the terms of {b.lower()}]].", "",
              "See also [[Index]].", ""]
    return "\n".join(lines)


def write_study_vault(root: Path) -> Path:
    (root / ".obsidian").mkdir(parents=True, exist_ok=True)
    titles = list(NOTES)
    for i, (title, (folder, definition, terms, statements, code)) in enumerate(NOTES.items()):
        write(root, f"{folder}/{title}.md",
              _note(title, folder, definition, terms, statements, code, titles, i))
    write(root, "Index.md", "# Index\n\n" + "\n".join(f"- [[{t}]]" for t in titles) + "\n")
    return root
