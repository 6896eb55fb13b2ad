// Topics keep apart: the server's layout spaces notes by their links, not by what the map draws
// around them, so a learned topic's large disc, or its ring of ideas at topic zoom, may reach
// over its neighbour. A few passes of pairwise separation (like d3-force's collide) move the
// topics that overlap — each by half the overlap — and leave every other topic where it is.
// Neighbours are found in a dense grid of cells at least as wide as the widest pair's reach,
// rebuilt per pass (a counting sort: 100k topics in a few ms).

const PASSES = 8;
const PAD = 0.04;  // spacings kept free between two topics' reaches
const MAX_CELLS = 4;  // grid cells per topic at most: a sparse map gets wider cells

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
  const moved = new Uint8Array(n);
  const pad = PAD * unit;
  for (let pass = 0; pass < PASSES; pass++) {
    const grid = topicGrid(topics, xs, ys, 2 * widest + pad);
    let overlaps = 0;
    for (const i of topics) {
      grid.near(i, (j) => {
        if (j <= i) return;
        const need = reach[i] + reach[j] + pad;
        let ux = xs[j] - xs[i], uy = ys[j] - ys[i];
        const d2 = ux * ux + uy * uy;  // squared: most pairs part here
        if (d2 >= need * need) return;
        const d = Math.sqrt(d2);
        if (d > 1e-9) { ux /= d; uy /= d; } else { ux = Math.cos(i + j); uy = Math.sin(i + j); }
        const push = (need - d) / 2;
        xs[i] -= ux * push; ys[i] -= uy * push;
        xs[j] += ux * push; ys[j] += uy * push;
        moved[i] = moved[j] = 1;
        overlaps += 1;
      });
    }
    if (!overlaps) break;
  }
  return moved.reduce((a, b) => a + b, 0);
}

/** The topics bucketed into square cells at least `least` wide (world units; `size`), so
 *  `near(i, visit)` visits every topic within one cell of topic `i` (where it was bucketed). */
export function topicGrid(topics, xs, ys, least) {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const i of topics) {
    if (xs[i] < minX) minX = xs[i];
    if (xs[i] > maxX) maxX = xs[i];
    if (ys[i] < minY) minY = ys[i];
    if (ys[i] > maxY) maxY = ys[i];
  }
  const w = Math.max(maxX - minX, 1e-9), h = Math.max(maxY - minY, 1e-9);
  let size = Math.max(least, 1e-9, Math.sqrt((w * h) / (MAX_CELLS * Math.max(1, topics.length))));
  // Topics along a line make a thin box of many cells: wider cells keep the grid small.
  while ((Math.floor(w / size) + 1) * (Math.floor(h / size) + 1) > 16 * topics.length + 16) size *= 2;
  const cols = Math.floor(w / size) + 1, rows = Math.floor(h / size) + 1;
  const cell = new Int32Array(xs.length);  // per node index
  const start = new Int32Array(cols * rows + 1);
  for (const i of topics) {
    const c = Math.floor((ys[i] - minY) / size) * cols + Math.floor((xs[i] - minX) / size);
    cell[i] = c;
    start[c + 1] += 1;
  }
  for (let c = 0; c < cols * rows; c++) start[c + 1] += start[c];
  const fill = start.slice(0, cols * rows);
  const list = new Int32Array(topics.length);
  for (const i of topics) list[fill[cell[i]]++] = i;
  /** Call `visit(j)` for every topic in topic `i`'s cell and the eight around it. */
  const near = (i, visit) => {
    const c = cell[i], cx = c % cols, cy = (c - cx) / cols;
    for (let gy = Math.max(0, cy - 1); gy <= Math.min(rows - 1, cy + 1); gy++) {
      for (let gx = Math.max(0, cx - 1); gx <= Math.min(cols - 1, cx + 1); gx++) {
        const at = gy * cols + gx;
        for (let p = start[at]; p < start[at + 1]; p++) visit(list[p]);
      }
    }
  };
  return { size, near };
}
