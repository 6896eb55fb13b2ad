// Screen-space text on the graph: cluster names from mid zoom, node labels fading in as you
// zoom closer. Labels never overlap: each is placed only if its box is free (greedy, most
// important first: selected, hovered, search hits, then larger nodes).

const FONT = "12px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
const CLUSTER_FONT = "600 13px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
const MAX_CHARS = 42;
const MAX_LABELS = 500;

const smooth = (t) => (t <= 0 ? 0 : t >= 1 ? 1 : t * t * (3 - 2 * t));

export function labelAlpha(k, unit) {
  return smooth((k * unit - 34) / 50);
}

export function shortText(text) {
  const clean = String(text).replace(/\s+/g, " ").trim();
  if (clean.length <= MAX_CHARS) return clean;
  const cut = clean.slice(0, MAX_CHARS);
  const space = cut.lastIndexOf(" ");
  return `${(space > 24 ? cut.slice(0, space) : cut).replace(/[,.;:]$/, "")}…`;
}

export function drawLabels(view, visible) {
  const { ctx, model, camera, colors, width, height } = view;
  const k = camera.k;
  const alpha = labelAlpha(k, model.unit);
  const boxes = new Occupancy();
  ctx.textBaseline = "middle";
  ctx.lineJoin = "round";

  // Cluster names first: they anchor the map at mid zoom and give way as node labels arrive.
  ctx.font = CLUSTER_FONT;
  ctx.textAlign = "center";
  for (const c of model.clusters) {
    if (!c.label) continue;
    const span = (c.maxX - c.minX) * k;
    const a = smooth((span - 90) / 80) * (1 - 0.5 * alpha);
    if (a < 0.03) continue;
    const [sx, sy] = camera.toScreen(c.cx, c.cy, width, height);
    if (sx < -200 || sx > width + 200 || sy < -20 || sy > height + 20) continue;
    const w = ctx.measureText(c.label).width;
    if (!boxes.take(sx - w / 2, sy - 9, w, 18)) continue;
    ctx.globalAlpha = a;
    halo(ctx, colors, c.label, sx, sy, colors.ink2, colors.hull);
  }

  ctx.font = FONT;
  ctx.textAlign = "left";
  const forced = [];
  if (view.selected >= 0) forced.push(view.selected);
  if (view.hovered >= 0) forced.push(view.hovered);
  for (const i of view.marked) forced.push(i);
  const forcedSet = new Set(forced);
  // Selected and hovered always get a label; search hits come next but must find room.
  const always = new Set([view.selected, view.hovered].filter((i) => i >= 0));
  let order = [...always, ...[...forcedSet].filter((i) => !always.has(i))];
  if (alpha > 0.02 && visible.length <= 4000) {
    const rest = visible.filter((i) => !forcedSet.has(i));
    rest.sort((a, b) => model.radius[b] - model.radius[a]);
    order = order.concat(rest);
  }
  const texts = model.shortTexts || (model.shortTexts = new Array(model.n));
  let placed = 0;
  for (const i of order) {
    if (placed >= MAX_LABELS) break;
    const isForced = always.has(i);
    const [sx, sy] = camera.toScreen(model.xs[i], model.ys[i], width, height);
    if (sx < -300 || sx > width + 20 || sy < -20 || sy > height + 20) continue;
    const text = texts[i] || (texts[i] = shortText(model.nodes[i].text));
    if (!model.labelWidth[i]) model.labelWidth[i] = ctx.measureText(text).width;
    const x = sx + Math.max(model.radius[i] * k, 2) + 6;
    if (!boxes.take(x - 2, sy - 8, model.labelWidth[i] + 4, 16) && !isForced) continue;
    ctx.globalAlpha = forcedSet.has(i) ? 1 : alpha;
    halo(ctx, colors, text, x, sy, i === view.selected ? colors.ink : colors.ink2);
    placed += 1;
  }
  ctx.globalAlpha = 1;
}

function halo(ctx, colors, text, x, y, fill, ground = colors.bg) {
  ctx.lineWidth = 3.5;
  ctx.strokeStyle = ground;
  ctx.strokeText(text, x, y);
  ctx.fillStyle = fill;
  ctx.fillText(text, x, y);
}

/** Screen boxes already taken, bucketed by 16 px rows. */
class Occupancy {
  constructor() {
    this.rows = new Map();
  }

  take(x, y, w, hgt) {
    const r0 = Math.floor(y / 16), r1 = Math.floor((y + hgt) / 16);
    for (let r = r0; r <= r1; r++) {
      for (const b of this.rows.get(r) || []) {
        if (x < b[0] + b[2] && x + w > b[0] && y < b[1] + b[3] && y + hgt > b[1]) return false;
      }
    }
    for (let r = r0; r <= r1; r++) {
      if (!this.rows.has(r)) this.rows.set(r, []);
      this.rows.get(r).push([x, y, w, hgt]);
    }
    return true;
  }
}
