// The local graph around the selection (one node, or several): their neighbours to depth 2 over
// links in either direction. Adjacency is built once per model (compressed rows), the walk once
// per selection.

export function adjacencyOf(n, edges) {
  const count = new Uint32Array(n + 1);
  for (let e = 0; e < edges.length; e++) count[edges[e] + 1] += 1;
  for (let i = 0; i < n; i++) count[i + 1] += count[i];
  const start = count.slice();
  const list = new Int32Array(edges.length);
  for (let e = 0; e < edges.length; e += 2) {
    const a = edges[e], b = edges[e + 1];
    list[start[a]++] = b;
    list[start[b]++] = a;
  }
  return { offsets: count, list };
}

/** Depth per node from `roots` (one index or several; 1 = a root, 2 = a neighbour, 3 = a
 *  neighbour's neighbour, 0 = outside), walking at most `depth` links from the nearest root. */
export function neighbourhood(model, roots, depth = 2) {
  const adj = model.adjacency || (model.adjacency = adjacencyOf(model.n, model.edges));
  const level = new Uint8Array(model.n);
  let frontier = typeof roots === "number" ? [roots] : [...roots];
  for (const root of frontier) level[root] = 1;
  for (let d = 1; d <= depth && frontier.length; d++) {
    const next = [];
    for (const i of frontier) {
      for (let p = adj.offsets[i]; p < adj.offsets[i + 1]; p++) {
        const j = adj.list[p];
        if (level[j]) continue;
        level[j] = d + 1;
        next.push(j);
      }
    }
    frontier = next;
  }
  return level;
}
