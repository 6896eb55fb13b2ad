// The slim map (GET /api/graph/map: one array per field, a node is its index; most important
// nodes first, in parts) as Home's data: a light object per node (id, short label, state,
// position, sources, counts), edges as index pairs and clusters with their member indices. A
// node's full text, evidence and links are read when it is selected (GET /api/graph/nodes/{id}).

// `topic_states`: a topic's state rolled up from its ideas' (issue 28), what the map paints;
// `topic`: an idea's topic (its index), -1 for a topic: ideas are drawn as its satellites.
const COLUMNS = ["ids", "labels", "states", "topic_states", "topic", "x", "y", "cluster", "evidence", "quiz", "src"];

/** The first part with the parts after it appended (same version, consecutive starts). */
export function joinParts(first, rest) {
  const out = { ...first };
  for (const name of [...COLUMNS, "edges"]) {
    if (first[name]) out[name] = first[name].concat(...rest.map((p) => p[name] || []));
  }
  out.count = out.ids.length;
  out.next = rest.length ? rest[rest.length - 1].next : first.next;
  return out;
}

export function decodeMap(body) {
  const n = body.count || 0;
  const names = body.state_names || [];
  const { ids, labels, x, y, src, evidence, quiz, cluster } = body;
  const topic = body.topic || [];  // an older server sends none: every node is a topic
  const states = body.topic_states || body.states;  // a learned topic stands out at every zoom
  // One shared list per source: most nodes have one, and 100k copies of it would be waste.
  const single = (body.sources || []).map((s) => Object.freeze([s]));
  const clusters = (body.clusters || []).map((c) => ({ ...c, members: [] }));
  const nodes = new Array(n);
  for (let i = 0; i < n; i++) {
    const s = src[i];
    const ci = cluster[i];
    const c = ci >= 0 ? clusters[ci] : null;
    if (c) c.members.push(i);
    nodes[i] = {
      id: ids[i], text: labels[i], state: names[states[i]] || "not-tried",
      position: x[i] === null ? null : { x: x[i], y: y[i] },
      sources: typeof s === "number" ? single[s] : s.map((k) => body.sources[k]),
      cluster: c ? c.id : null, evidenceCount: evidence[i], quizCount: quiz[i],
      topic: topic[i] ?? -1,
    };
  }
  const flat = body.edges || [];
  const pairs = [];
  for (let e = 0; e < flat.length; e += 2) {
    if (flat[e] !== flat[e + 1]) pairs.push(flat[e], flat[e + 1]);
  }
  return { version: body.version, nodes, edges: Int32Array.from(pairs), edgeCount: flat.length / 2, clusters };
}
