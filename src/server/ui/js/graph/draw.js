// The world-space layers of one frame: cluster washes, edges, nodes (batched per state, learned
// nodes with a halo and never smaller than a visible dot), rings for selection, hover and hits.
// `show` (a per-node mask, or null) hides what the filters leave out.

const NOT_TRIED = 2;
const DRAW_ORDER = [2, 1, 3, 0];  // quiet "not tried" underneath, what is learned on top

export function drawClusters(ctx, model, colors, k, minX, minY, maxX, maxY) {
  ctx.lineJoin = "round";
  ctx.lineCap = "round";
  for (const c of model.clusters) {
    if (c.maxX < minX || c.minX > maxX || c.maxY < minY || c.minY > maxY) continue;
    ctx.beginPath();
    const [first, ...rest] = c.hull;
    ctx.moveTo(first[0], first[1]);
    for (const [x, y] of rest) ctx.lineTo(x, y);
    if (c.hull.length > 2) ctx.closePath();
    else if (c.hull.length === 1) ctx.lineTo(first[0] + 1e-3, first[1]);
    // A thick round stroke pads the hull into a soft blob; the fill covers its inside.
    ctx.lineWidth = c.pad * 2;
    ctx.strokeStyle = colors.hull;
    ctx.fillStyle = colors.hull;
    ctx.stroke();
    if (c.hull.length > 2) ctx.fill();
  }
}

/** `edges` (index pairs: the map's between topics, else an idea's) in the box; with `focus`,
 *  only those whose both ends are in the local graph. Edges touching `selected` (an index) or a
 *  node of `picked` (a Set, or null) are drawn in accent. */
export function drawEdges(ctx, model, colors, k, box, { edges, show, focus, selected, picked = null, width = 1 }) {
  const { xs, ys } = model;
  if (!edges.length) return;
  const [minX, minY, maxX, maxY] = box;
  ctx.beginPath();
  const highlight = [];
  for (let e = 0; e < edges.length; e += 2) {
    const a = edges[e], b = edges[e + 1];
    if (show && (!show[a] || !show[b])) continue;
    if (focus && (!focus[a] || !focus[b])) continue;
    const ax = xs[a], ay = ys[a], bx = xs[b], by = ys[b];
    if ((ax < minX && bx < minX) || (ax > maxX && bx > maxX) ||
        (ay < minY && by < minY) || (ay > maxY && by > maxY)) continue;
    if (a === selected || b === selected || (picked && (picked.has(a) || picked.has(b)))) highlight.push(a, b);
    ctx.moveTo(ax, ay);
    ctx.lineTo(bx, by);
  }
  ctx.lineWidth = width / k;
  ctx.strokeStyle = colors.edge;
  ctx.stroke();
  if (highlight.length) {
    ctx.beginPath();
    for (let h = 0; h < highlight.length; h += 2) {
      ctx.moveTo(xs[highlight[h]], ys[highlight[h]]);
      ctx.lineTo(xs[highlight[h + 1]], ys[highlight[h + 1]]);
    }
    ctx.lineWidth = 1.6 / k;
    ctx.strokeStyle = colors.accent;
    ctx.stroke();
  }
}

export function drawNodes(ctx, model, colors, k, visible) {
  const { xs, ys, radius, state } = model;
  // Learned nodes: a soft halo, so they read as lit among the quiet ones at any zoom.
  for (const s of [1, 3, 0]) {
    ctx.beginPath();
    let any = false;
    for (const i of visible) {
      if (state[i] !== s) continue;
      any = true;
      const r = Math.max(radius[i], 2 / k) + 3.5 / k;
      ctx.moveTo(xs[i] + r, ys[i]);
      ctx.arc(xs[i], ys[i], r, 0, Math.PI * 2);
    }
    if (!any) continue;
    const saved = ctx.globalAlpha;
    ctx.globalAlpha = saved * 0.22;
    ctx.fillStyle = colors.states[s];
    ctx.fill();
    ctx.globalAlpha = saved;
  }
  for (const s of DRAW_ORDER) {
    const diamond = s === 1 || s === 3;
    const outline = s >= 2;
    // Below ~1.3 px a node is a square dot (far cheaper than an arc); learned ones stay visible.
    const tiny = (s === NOT_TRIED ? 1.1 : 2) / k;
    ctx.beginPath();
    let any = false;
    for (const i of visible) {
      if (state[i] !== s) continue;
      any = true;
      const x = xs[i], y = ys[i], r = Math.max(radius[i], tiny);
      if (r * k < 2.5) {
        ctx.rect(x - r, y - r, r * 2, r * 2);
      } else if (diamond) {
        const d = r * 1.2;
        ctx.moveTo(x, y - d);
        ctx.lineTo(x + d, y);
        ctx.lineTo(x, y + d);
        ctx.lineTo(x - d, y);
        ctx.closePath();
      } else {
        ctx.moveTo(x + r, y);
        ctx.arc(x, y, r, 0, Math.PI * 2);
      }
    }
    if (!any) continue;
    const color = colors.states[s];
    if (outline) {
      ctx.fillStyle = colors.bg;  // outlines hide the edges beneath them
      ctx.fill();
      ctx.lineWidth = (s === NOT_TRIED ? 1.1 : 1.6) / k;
      ctx.strokeStyle = color;
      ctx.stroke();
    } else {
      ctx.fillStyle = color;
      ctx.fill();
    }
  }
  // The corrected-misconception mark: a small dot inside the amber outline.
  ctx.beginPath();
  for (const i of visible) {
    if (state[i] !== 3 || radius[i] * k < 4) continue;
    const r = radius[i] * 0.38;
    ctx.moveTo(xs[i] + r, ys[i]);
    ctx.arc(xs[i], ys[i], r, 0, Math.PI * 2);
  }
  ctx.fillStyle = colors.states[3];
  ctx.fill();
}

export function drawRings(ctx, model, colors, k, selected, hovered, marked, picked = null) {
  const ring = (i, color, width, gap) => {
    const r = Math.max(model.radius[i], 2 / k) + gap / k;
    ctx.beginPath();
    ctx.arc(model.xs[i], model.ys[i], r, 0, Math.PI * 2);
    ctx.lineWidth = width / k;
    ctx.strokeStyle = color;
    ctx.stroke();
  };
  for (const i of marked) ring(i, colors.mark, 1.5, 3);
  if (hovered >= 0 && hovered !== selected && !picked?.has(hovered)) ring(hovered, colors.ink3, 1.5, 3);
  if (selected >= 0) ring(selected, colors.accent, 2.5, 4);
  // Several selected: each its accent ring, and a second, wider one so the set reads as one.
  for (const i of picked || []) {
    ring(i, colors.accent, 2.5, 4);
    ring(i, colors.accent, 1, 8);
  }
}
