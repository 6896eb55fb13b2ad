// The graph as the renderer needs it: flat typed arrays, a spatial grid for culling and
// hit-testing, padded cluster hulls — all computed once per map body (graph/map-data.js), never
// per frame. Ideas (the map's `topic` column) are satellites of their topic (satellites.js): the
// spacing, bounds, clusters, regions and label order count topics only.

import { buildRegions, importanceOf } from "./regions.js";
import { ideaRows, placeSatellites, reachOf, topicsOf } from "./satellites.js";
import { separateTopics } from "./separate.js";

export const STATES = ["solid", "shaky", "not-tried", "corrected-misconception"];

export function buildModel(data) {
  const started = performance.now();
  const nodes = data.nodes || [];
  const n = nodes.length;
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  const radius = new Float32Array(n);
  const state = new Uint8Array(n);
  const index = new Map();
  const placed = [];
  const topicOf = topicsOf(nodes);
  nodes.forEach((node, i) => {
    index.set(node.id, i);
    const p = node.position;
    if (topicOf[i] !== -1) {
      xs[i] = ys[i] = 0;  // an idea: on its topic's rings, placed below
    } else if (p && Number.isFinite(p.x) && Number.isFinite(p.y)) {
      xs[i] = p.x;
      ys[i] = p.y;
      placed.push(i);
    } else {
      xs[i] = NaN;
    }
    const s = STATES.indexOf(node.state);
    state[i] = s < 0 ? 2 : s;
  });
  const bounds = boundsOf(xs, ys, placed);
  const unit = spacingOf(xs, ys, placed, unitOf(bounds, Math.max(placed.length, 1)));
  placeMissing(xs, ys, bounds, unit);
  const topics = [];
  for (let i = 0; i < n; i++) if (topicOf[i] === -1) topics.push(i);
  nodes.forEach((node, i) => {
    const weight = (node.evidenceCount || 0) + (node.quizCount || 0);
    // Learned nodes stand out: a size step up from "not tried" at the same evidence. A long
    // note's topic grows slowly and stays under 0.28 spacings, so neighbours never touch and a
    // label fits beside it at topic zoom.
    const learned = state[i] !== 2 ? 1.45 : 1;
    radius[i] = unit * Math.min(0.28, 0.08 * learned * (1 + 0.3 * Math.log2(1 + weight)));
  });
  const model = {
    nodes, n, xs, ys, radius, state, index, unit, bounds: null, topicOf,
    topics: topics.length, ideaCount: n - topics.length,
    edges: data.edges,  // index pairs, no self-links
    ...splitEdges(data.edges, topicOf),
    clusters: [],
    labelWidth: new Float32Array(n),  // measured lazily by the renderer
    strongWidth: new Float32Array(n),
  };
  const rows = ideaRows(topicOf);
  const separated = separateTopics(model, reachOf(model, rows));  // no disc or ring over a neighbour
  model.bounds = boundsOf(xs, ys, topics);
  Object.assign(model, placeSatellites(model, rows));
  model.grid = buildGrid(xs, ys, unit * 4);
  model.clusters = buildClusters(model, data.clusters || []);
  model.clustersBySize = model.clusters.slice().sort((a, b) => b.members.length - a.members.length);
  model.regions = buildRegions(data, model.clusters, index);
  const { weight, order } = importanceOf(nodes, model.edges, state);
  model.importance = weight;
  // Most important first: labels are offered in this order (topics: an idea is named only
  // when pointed at).
  model.order = model.ideaCount ? order.filter((i) => topicOf[i] === -1) : order;
  model.built = { ms: performance.now() - started, separated };  // for bench/graph_paint.py
  return model;
}

/** The map's edges between topics, and the edges an idea has besides the one to its own topic
 *  (drawn at topic zoom; its ring says which topic it belongs to). */
function splitEdges(edges, topicOf) {
  const map = [], ideas = [];
  for (let e = 0; e < edges.length; e += 2) {
    const a = edges[e], b = edges[e + 1];
    if (topicOf[a] === -1 && topicOf[b] === -1) map.push(a, b);
    else if (topicOf[a] !== -2 && topicOf[b] !== -2 && topicOf[a] !== b && topicOf[b] !== a) ideas.push(a, b);
  }
  if (!ideas.length && map.length === edges.length) return { mapEdges: edges, ideaEdges: ideas };
  return { mapEdges: Int32Array.from(map), ideaEdges: Int32Array.from(ideas) };
}

function boundsOf(xs, ys, only) {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  const visit = (i) => {
    const x = xs[i], y = ys[i];
    if (!Number.isFinite(x)) return;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  };
  if (only) only.forEach(visit);
  else for (let i = 0; i < xs.length; i++) visit(i);
  if (minX === Infinity) return { minX: -100, minY: -100, maxX: 100, maxY: 100 };
  return { minX, minY, maxX, maxY };
}

function unitOf(b, count) {
  // The typical spacing between neighbours if the nodes filled their box evenly.
  const w = Math.max(b.maxX - b.minX, 1e-6);
  const hgt = Math.max(b.maxY - b.minY, 1e-6);
  const area = Math.max(w * hgt, Math.max(w, hgt) ** 2 * 0.05);
  const unit = Math.sqrt(area / count);
  return Number.isFinite(unit) && unit > 0 ? (count === 1 ? 60 : unit) : 60;
}

function spacingOf(xs, ys, placed, boxUnit) {
  // The median distance to the nearest neighbour over a sample: in a clustered layout the box
  // spacing counts the empty space between clusters, and nodes drawn at it would overlap.
  if (placed.length < 3) return boxUnit;
  const size = boxUnit;
  const cells = new Map();
  for (const i of placed) {
    const key = `${Math.floor(xs[i] / size)},${Math.floor(ys[i] / size)}`;
    (cells.get(key) || cells.set(key, []).get(key)).push(i);
  }
  const step = Math.max(1, Math.floor(placed.length / 600));
  const nearest = [];
  for (let p = 0; p < placed.length; p += step) {
    const i = placed[p];
    const cx = Math.floor(xs[i] / size), cy = Math.floor(ys[i] / size);
    let best = Infinity;
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        for (const j of cells.get(`${cx + dx},${cy + dy}`) || []) {
          const d = Math.hypot(xs[i] - xs[j], ys[i] - ys[j]);
          if (j !== i && d > 0 && d < best) best = d;
        }
      }
    }
    if (best < Infinity) nearest.push(best);
  }
  if (nearest.length < 3) return boxUnit;
  nearest.sort((a, b) => a - b);
  // Nearest-neighbour gaps run about half the even spacing: scale back to that yardstick.
  return Math.min(boxUnit, nearest[nearest.length >> 1] * 1.6);
}

function placeMissing(xs, ys, b, unit) {
  // Topics the server has not placed yet: a golden-angle spiral beside the placed ones.
  const cx = (b.minX + b.maxX) / 2;
  const cy = b.maxY + unit * 3;
  let k = 0;
  for (let i = 0; i < xs.length; i++) {
    if (Number.isFinite(xs[i])) continue;
    const angle = k * 2.399963;
    const dist = unit * 0.9 * Math.sqrt(k + 1);
    xs[i] = cx + Math.cos(angle) * dist;
    ys[i] = cy + Math.sin(angle) * dist;
    k += 1;
  }
}

function buildGrid(xs, ys, size) {
  const cells = new Map();
  for (let i = 0; i < xs.length; i++) {
    const key = cellKey(Math.floor(xs[i] / size), Math.floor(ys[i] / size));
    let list = cells.get(key);
    if (!list) cells.set(key, (list = []));
    list.push(i);
  }
  return { size, cells };
}

function cellKey(cx, cy) {
  return cx * 73856093 ^ cy * 19349663;  // a hash; collisions only cost extra candidates
}

/** Every node index in the world rectangle (may include a few just outside). */
export function nodesIn(model, minX, minY, maxX, maxY, out = []) {
  out.length = 0;
  const { size, cells } = model.grid;
  const x0 = Math.floor(minX / size), x1 = Math.floor(maxX / size);
  const y0 = Math.floor(minY / size), y1 = Math.floor(maxY / size);
  if ((x1 - x0 + 1) * (y1 - y0 + 1) > cells.size * 2) {
    for (let i = 0; i < model.n; i++) out.push(i);
    return out;
  }
  const seen = new Set();
  for (let gx = x0; gx <= x1; gx++) {
    for (let gy = y0; gy <= y1; gy++) {
      const key = cellKey(gx, gy);
      if (seen.has(key)) continue;
      seen.add(key);
      const list = cells.get(key);
      if (list) for (const i of list) out.push(i);
    }
  }
  return out;
}

/** The node under a world point, within `slop` world units beyond its radius, among those
 *  `allow` lets through (all without it). */
export function hitTest(model, x, y, slop, allow = null) {
  let best = -1;
  let bestD = Infinity;
  const reach = model.unit * 0.6 + slop;
  for (const i of nodesIn(model, x - reach, y - reach, x + reach, y + reach)) {
    const d = Math.hypot(model.xs[i] - x, model.ys[i] - y) - model.radius[i];
    if (d <= slop && d < bestD && (!allow || allow(i))) {
      best = i;
      bestD = d;
    }
  }
  return best;
}

function buildClusters(model, clusters) {
  const out = [];
  for (const c of clusters) {
    const members = model.ideaCount ? c.members.filter((i) => model.topicOf[i] === -1) : c.members;
    if (!members.length) continue;
    const pts = members.map((i) => [model.xs[i], model.ys[i]]);
    const hull = convexHull(pts);
    let sx = 0, sy = 0;
    for (const [x, y] of pts) { sx += x; sy += y; }
    const pad = model.unit * 0.9;
    const xsH = hull.map((p) => p[0]), ysH = hull.map((p) => p[1]);
    out.push({
      id: c.id, label: c.label || null, members, hull, pad,
      region: c.region || null, regionLabel: c.region_label || null,
      cx: sx / pts.length, cy: sy / pts.length,
      minX: Math.min(...xsH) - pad, maxX: Math.max(...xsH) + pad,
      minY: Math.min(...ysH) - pad, maxY: Math.max(...ysH) + pad,
    });
  }
  return out;
}

/** Andrew's monotone chain; returns the hull counter-clockwise (1-2 points pass through). */
export function convexHull(points) {
  const pts = points.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (pts.length < 3) return pts;
  const cross = (o, a, b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper = [];
  for (let i = pts.length - 1; i >= 0; i--) {
    const p = pts[i];
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], p) <= 0) upper.pop();
    upper.push(p);
  }
  upper.pop();
  lower.pop();
  return lower.concat(upper);
}
