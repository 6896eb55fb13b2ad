// Topics keep apart: the server's layout spaces notes by their links, not by what the map draws
// around them, so a learned topic's large disc, or its ring of ideas at topic zoom, may reach
// over its neighbour. A few passes of pairwise separation (like d3-force's collide) move the
// topics that overlap — each by half the overlap — and leave every other topic where it is.

const PASSES = 8;
const PAD = 0.04;  // spacings kept free between two topics' reaches
const MAX_CELL = 8;  // spacings: a grid cell reaches at least the largest pair it must part

const cellKey = (cx, cy) => cx * 73856093 ^ cy * 19349663;  // a hash: a collision costs a candidate

/** Move the topics (`model.topicOf[i] === -1`) so no two are nearer than their `reach`es (world
 *  units: a topic's disc or its outer ring) plus a pad; returns how many moved. */
export function separateTopics(model, reach) {
  const { n, xs, ys, unit, topicOf } = model;
  const topics = [];
  let widest = 0;
  for (let i = 0; i < n; i++) {
    if (topicOf[i] !== -1 || !Number.isFinite(xs[i])) continue;
    topics.push(i);
    if (reach[i] > widest) widest = reach[i];
  }
  const size = Math.min(MAX_CELL * unit, Math.max(2 * unit, 2 * widest + PAD * unit));
  const moved = new Uint8Array(n);
  for (let pass = 0; pass < PASSES; pass++) {
    const cells = new Map();
    for (const i of topics) {
      const key = cellKey(Math.floor(xs[i] / size), Math.floor(ys[i] / size));
      (cells.get(key) || cells.set(key, []).get(key)).push(i);
    }
    let overlaps = 0;
    for (const i of topics) {
      const cx = Math.floor(xs[i] / size), cy = Math.floor(ys[i] / size);
      for (let dx = -1; dx <= 1; dx++) {
        for (let dy = -1; dy <= 1; dy++) {
          for (const j of cells.get(cellKey(cx + dx, cy + dy)) || []) {
            if (j <= i) continue;
            const need = reach[i] + reach[j] + PAD * unit;
            let ux = xs[j] - xs[i], uy = ys[j] - ys[i];
            const d = Math.hypot(ux, uy);
            if (d >= need) continue;
            if (d > 1e-9) { ux /= d; uy /= d; } else { ux = Math.cos(i + j); uy = Math.sin(i + j); }
            const push = (need - d) / 2;
            xs[i] -= ux * push; ys[i] -= uy * push;
            xs[j] += ux * push; ys[j] += uy * push;
            moved[i] = moved[j] = 1;
            overlaps += 1;
          }
        }
      }
    }
    if (!overlaps) break;
  }
  return moved.reduce((a, b) => a + b, 0);
}
