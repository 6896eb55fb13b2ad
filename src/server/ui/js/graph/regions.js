// Level of detail for the map: each node's importance (what it has been shown to hold, how linked
// it is, whether it was learned), the nodes in importance order, and the coarse regions named at
// whole-graph zoom — the server's region level when it sends one, else the largest clusters.

export const MAX_REGIONS = 40;

/** Importance per node: evidence, quiz answers and links; learned nodes get a head start. */
export function importanceOf(nodes, edges, state) {
  const n = nodes.length;
  const degree = new Uint32Array(n);
  for (let e = 0; e < edges.length; e++) degree[edges[e]] += 1;
  const weight = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const node = nodes[i];
    const learned = state[i] === 0 || state[i] === 1 || state[i] === 3 ? 4 : 0;
    weight[i] = (node.evidenceCount || 0) + 2 * (node.quizCount || 0) + degree[i] + learned;
  }
  const order = Uint32Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => weight[b] - weight[a] || a - b);
  return { weight, order };
}

/** Regions as {label, members (cluster indices)}: from `data.regions` (with cluster_ids or
 *  node_ids), from a `region` field on clusters, or else the largest clusters. */
export function buildRegions(data, clusters, index) {
  const byId = new Map(clusters.map((c, ci) => [c.id, ci]));
  const clusterOfNode = new Map();
  clusters.forEach((c, ci) => c.members.forEach((i) => clusterOfNode.set(i, ci)));
  let groups = null;
  if (Array.isArray(data.regions) && data.regions.length) {
    groups = data.regions.map((r) => {
      const ids = new Set();
      for (const id of r.cluster_ids || []) if (byId.has(id)) ids.add(byId.get(id));
      for (const id of r.node_ids || []) {
        const ci = clusterOfNode.get(index.get(id));
        if (ci !== undefined) ids.add(ci);
      }
      return { label: r.label || null, clusters: [...ids] };
    });
  } else if (clusters.some((c) => c.region)) {
    const named = new Map();
    clusters.forEach((c, ci) => {
      const key = c.region || c.id;
      if (!named.has(key)) named.set(key, { label: c.regionLabel || null, clusters: [] });
      named.get(key).clusters.push(ci);
    });
    groups = [...named.values()];
  }
  if (!groups) groups = clusters.map((c, ci) => ({ label: c.label, clusters: [ci] }));
  const regions = groups.filter((g) => g.clusters.length).map((g) => regionOf(g, clusters));
  regions.sort((a, b) => b.size - a.size);
  // The map names at most MAX_REGIONS; the rest are named once you zoom in, as clusters.
  return regions.filter((r) => r.label).slice(0, MAX_REGIONS);
}

function regionOf(group, clusters) {
  let sx = 0, sy = 0, size = 0;
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  let biggest = null;
  for (const ci of group.clusters) {
    const c = clusters[ci];
    const m = c.members.length;
    sx += c.cx * m;
    sy += c.cy * m;
    size += m;
    minX = Math.min(minX, c.minX); minY = Math.min(minY, c.minY);
    maxX = Math.max(maxX, c.maxX); maxY = Math.max(maxY, c.maxY);
    if (!biggest || m > biggest.members.length) biggest = c;
  }
  const label = group.label || biggest?.label || null;
  return { label, clusters: group.clusters, size, cx: sx / size, cy: sy / size, minX, minY, maxX, maxY };
}
