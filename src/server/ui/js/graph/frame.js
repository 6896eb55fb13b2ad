// Framing: the camera view that shows a set of nodes whole, clear of the floating controls
// (search and filters along the top, legend and zoom buttons along the bottom), never closer
// than a node filling a good part of the screen.

const EDGE = 24;  // px kept free at the sides
const MAX_NODE_ZOOM = 110;  // screen px per typical node spacing: a lone node is not blown up

/** Indices with `level[i] > 0` (or every index when `level` is null) that `show` lets through. */
export function shownIndices(level, show) {
  const out = [];
  const n = (level || show).length;
  for (let i = 0; i < n; i++) {
    if ((!level || level[i]) && (!show || show[i])) out.push(i);
  }
  return out;
}

/** {x, y, k} that frames `indices` in a width × height canvas whose `obstacles` (canvas px
 *  boxes) cover its top and bottom bands; null when there is nothing to frame. */
export function frameOf(model, indices, width, height, obstacles = [], anchor = -1) {
  const list = indices.length ? indices : anchor >= 0 ? [anchor] : [];
  if (!list.length) return null;
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const i of list) {
    const x = model.xs[i], y = model.ys[i];
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  const pad = model.unit * 1.5;
  let top = EDGE, bottom = EDGE;
  for (const r of obstacles) {
    if (r.y + r.h < height / 3) top = Math.max(top, r.y + r.h + 12);
    else if (r.y > (height * 2) / 3) bottom = Math.max(bottom, height - r.y + 12);
  }
  const w = Math.max(1, width - 2 * EDGE), h = Math.max(1, height - top - bottom);
  const k = Math.min(w / (maxX - minX + pad * 2), h / (maxY - minY + pad * 2), MAX_NODE_ZOOM / model.unit);
  // The free band's centre sits (top - bottom) / 2 px below the canvas centre.
  const x = (minX + maxX) / 2;
  const y = (minY + maxY) / 2 - (top - bottom) / 2 / k;
  return { x, y, k };
}
