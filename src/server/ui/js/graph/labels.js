// Screen-space text on the graph, by level of detail: at whole-graph zoom the region names (a
// map), closer in the cluster names and the most important topics, deep in every topic. Labels
// never overlap each other or the floating controls: greedy placement, most important first,
// each label trying a few spots around its anchor, against a grid of the boxes already taken.
// A text is on screen once: a topic named like its region (or two topics alike) is named once.
// An idea (a satellite, from topic zoom) is named only when pointed at, after its topic, and
// pointing outwards; no other label covers a satellite.
// Every name keeps off the topics' discs drawn large enough to see where it can: first the
// spots that leave them clear (a topic's also at its disc's corners), then as before.

import { LabelGrid } from "./label-grid.js";

const FONT = "12px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
const STRONG_FONT = "600 12px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
const REGION_FONT = "600 14px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
const CLUSTER_FONT = "600 12.5px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
const MAX_CHARS = 42;
const REGION_CHARS = 28;
const MAX_LABELS = 350;
const ALL_TOPICS = 44;  // screen px per typical node spacing from which every topic is named
const FIRST_TOPICS = 7;  // below it only the map: regions and clusters
const WHOLE_TOPICS = 8;  // topics named beside the regions at whole-graph zoom
const SEEN_DISC = 4;  // screen px of radius from which a topic's disc is kept clear of names

const smooth = (t) => (t <= 0 ? 0 : t >= 1 ? 1 : t * t * (3 - 2 * t));

/** How close (screen px per spacing) a node of this importance must be to get its label. */
export function zoomToName(weight) {
  return Math.max(FIRST_TOPICS, ALL_TOPICS / (1 + 0.6 * Math.log2(1 + weight)));
}

export function shortText(text, max = MAX_CHARS) {
  const clean = String(text).replace(/\s+/g, " ").trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.55 ? cut.slice(0, space) : cut).replace(/[,.;:·]$/, "")}…`;
}

export function drawLabels(view, visibleMask) {
  const { ctx, model, camera, colors, width, height } = view;
  const z = camera.k * model.unit;
  const grid = new LabelGrid(width, height);
  for (const r of view.obstacles()) grid.block(r.x - 4, r.y - 4, r.w + 8, r.h + 8);
  const placed = [];
  const said = new Set();  // the texts already on screen, case-folded
  ctx.textBaseline = "middle";
  ctx.lineJoin = "round";
  const focus = view.focus;  // depth per node around the selection, or null
  const screen = (x, y) => camera.toScreen(x, y, width, height);

  // The other names keep off the discs of what was pointed at (named first, wherever it is).
  let discs = null;
  const crowd = topicDiscs(view, screen);  // every topic's disc large enough to see
  // First the spots that leave the other topics' discs clear (with `before` and `after`, tried
  // only so), then the spots as they come. `full`: the text before it was shortened.
  const put = (text, spots, w, font, fill, ground, alpha, kind,
    { node = -1, before = [], after = [], full = text } = {}) => {
    // Neither the name nor the text shown (two long names may shorten alike) is said twice.
    const key = full.toLowerCase(), shown = text.toLowerCase();
    if (said.has(key) || said.has(shown)) return false;
    const own = node >= 0 ? model.topicOf[node] : -1;
    for (const clear of [true, false]) {
      for (const [x, y, align] of clear ? [...before, ...spots, ...after] : spots) {
        const left = align === "center" ? x - w / 2 : align === "right" ? x - w : x;
        if (discs && node >= 0 && !discs.free(left - 2, y - 9, w + 4, 18, node, own)) continue;
        if (clear && !crowd.free(left - 2, y - 9, w + 4, 18, node, own)) continue;
        if (!grid.take(left - 2, y - 9, w + 4, 18)) continue;
        ctx.font = font;
        ctx.textAlign = align;
        ctx.globalAlpha = alpha;
        halo(ctx, text, x, y, fill, ground);
        placed.push({ x: left - 2, y: y - 9, w: w + 4, h: 18, text, kind, node });
        said.add(key);
        said.add(shown);
        return true;
      }
    }
    return false;
  };
  const nodeLabel = (i, alpha, strong) => {
    if (placed.length >= MAX_LABELS) return false;
    const [sx, sy] = screen(model.xs[i], model.ys[i]);
    if (sx < -40 || sx > width + 40 || sy < -10 || sy > height + 10) return false;
    const text = labelText(model, i);
    ctx.font = strong ? STRONG_FONT : FONT;
    const key = strong ? model.strongWidth : model.labelWidth;
    if (!key[i]) key[i] = ctx.measureText(text).width;
    const w = key[i], gap = gapOf(i);
    const t = model.topicOf[i];
    const spots = t >= 0 ? outwards(sx, sy, gap, model.xs[i] - model.xs[t], model.ys[i] - model.ys[t])
      : sides(sx, sy, gap);
    const fill = i === view.selected || view.picked.has(i) || strong ? colors.ink : colors.ink2;
    return put(text, spots, w, strong ? STRONG_FONT : FONT, fill, colors.bg, alpha, t >= 0 ? "idea" : "topic",
      { node: i, after: t >= 0 ? [] : corners(sx, sy, gap), full: fullText(model, i) });
  };
  const learned = (i) => model.state[i] !== 2;
  function gapOf(i) {
    return Math.max(model.radius[i] * camera.k, 2) + 6;
  }
  const discSpots = (i) => {
    const [sx, sy] = screen(model.xs[i], model.ys[i]);
    return [...sides(sx, sy, gapOf(i)), ...corners(sx, sy, gapOf(i))];
  };

  // 1. What the learner pointed at: the selection (one node or several), the hover, search hits;
  // an idea after its topic, so the topic keeps its place and says whose idea it is.
  const pointed = [view.selected, ...view.picked, view.hovered].filter((i) => view.seen(i));
  const first = [...new Set(pointed.flatMap((i) => (model.topicOf[i] >= 0 ? [model.topicOf[i], i] : [i])))];
  for (const i of first) nodeLabel(i, 1, true);
  for (const i of view.marked) if (!first.includes(i) && view.seen(i)) nodeLabel(i, 1, learned(i));
  discs = pointedDiscs(view, [...first, ...view.marked], screen);
  for (const i of view.satellites) {  // the rest keep off the satellites
    const [sx, sy] = screen(model.xs[i], model.ys[i]);
    const r = Math.max(model.radius[i] * camera.k, 2) + 1;
    grid.block(sx - r, sy - r, r * 2, r * 2);
  }
  // 2. The local graph around the selection: its nodes, nearest and most important first.
  if (focus) {
    for (const depth of [2, 3]) {
      for (const i of model.order) if (focus[i] === depth && i !== view.hovered) nodeLabel(i, 1, learned(i));
    }
  }
  // 3. The map: region names, fading as topics take over.
  // They fade once the learner zooms in past the whole graph: on a small vault (one node per
  // note: 170 notes, not 1,500 headings) the whole graph is already at a close zoom, and its
  // regions must still be named there.
  const b = model.bounds;
  const whole = (Math.min(width, height) / Math.max(b.maxX - b.minX, b.maxY - b.minY, model.unit)) * model.unit;
  const fadeFrom = Math.max(18, whole * 1.6);
  // Where satellites are drawn (topic zoom) the map's names give way to the topics' own: a
  // region's name would sit inside a topic's ring.
  const rings = view.satellites.length ? view.satelliteAlpha() : 0;
  const mapAlpha = (focus ? 0.45 : 1) * (1 - smooth((z - fadeFrom) / 20)) * (1 - rings);
  const named = new Set();
  if (mapAlpha > 0.03) {
    ctx.font = REGION_FONT;
    for (const r of model.regions) {
      if ((r.maxX - r.minX) * camera.k < 8) continue;
      const [sx, sy] = screen(r.cx, r.cy);
      const text = shortText(r.label, REGION_CHARS);
      const w = r.width || (r.width = ctx.measureText(text).width);
      // A region of one topic is named beside that topic's disc where it is clear.
      const sole = r.size === 1 ? model.clusters[r.clusters[0]].members[0] : -1;
      if (put(text, areaSpots(r, sx, sy, screen, 20), w, REGION_FONT, colors.ink, colors.bg, mapAlpha,
        "region", { before: sole >= 0 ? discSpots(sole) : [], after: aroundSpots(sx, sy, w, 20),
          full: r.label })) named.add(r.label);
    }
    // 4. Closer in, the clusters inside each region get their names too.
    ctx.font = CLUSTER_FONT;
    for (const c of model.clustersBySize) {
      if (!c.label || named.has(c.label) || (c.maxX - c.minX) * camera.k < 150) continue;
      const [sx, sy] = screen(c.cx, c.cy);
      if (sx < -100 || sx > width + 100 || sy < -20 || sy > height + 20) continue;
      const text = shortText(c.label, REGION_CHARS);
      const w = c.width || (c.width = ctx.measureText(text).width);
      put(text, areaSpots(c, sx, sy, screen, 18), w, CLUSTER_FONT, colors.ink2, colors.bg,
        mapAlpha * 0.9, "cluster", { after: aroundSpots(sx, sy, w, 18), full: c.label });
    }
  }
  // 5. Topics, most important first, each from the zoom its importance earns — at whole-graph
  // zoom only a few beside the regions' names (a map, not a word cloud), all once zoomed in.
  if (!focus && z >= FIRST_TOPICS) {
    let budget = model.regions.length && z < whole * 1.5 ? WHOLE_TOPICS : Infinity;
    for (const i of model.order) {
      if (placed.length >= MAX_LABELS || budget <= 0) break;
      if (z < zoomToName(model.importance[i])) break;  // the rest are less important still
      if (visibleMask && !visibleMask[i]) continue;
      if (nodeLabel(i, smooth((z - zoomToName(model.importance[i]) + 4) / 8), learned(i))) budget -= 1;
    }
  }
  ctx.globalAlpha = 1;
  view.labelRects = placed;
}

/** The topics' discs drawn this frame at least SEEN_DISC px in radius, each with its node: a
 *  speck at whole-graph zoom may sit under a name; a disc one can point at is kept clear. */
function topicDiscs(view, screen) {
  const { model, camera, width, height } = view;
  const grid = new LabelGrid(width, height);
  for (const i of view.drawnTopics || []) {
    const r = model.radius[i] * camera.k;
    if (r < SEEN_DISC) continue;
    const [sx, sy] = screen(model.xs[i], model.ys[i]);
    grid.block(sx - r, sy - r, r * 2, r * 2, i);
  }
  return grid;
}

/** The screen boxes of the discs of the pointed-at topics (an idea's: its topic's), each with
 *  its node: no other node's name covers what the learner is looking at. */
function pointedDiscs(view, pointed, screen) {
  const { model, camera, width, height } = view;
  const grid = new LabelGrid(width, height);
  for (const i of pointed) {
    if (model.topicOf[i] !== -1 || !view.seen(i)) continue;
    const r = Math.max(model.radius[i] * camera.k, 2);
    const [sx, sy] = screen(model.xs[i], model.ys[i]);
    grid.block(sx - r, sy - r, r * 2, r * 2, i);
  }
  return grid;
}

/** Where an area's name may go: its centre while it is small on screen; once it is large,
 *  above or below it like a map's caption, leaving its middle to its own topics. */
function areaSpots(area, sx, sy, screen, step) {
  const [, top] = screen(area.cx, area.minY);
  const [, bottom] = screen(area.cx, area.maxY);
  if (bottom - top < 60) return [[sx, sy, "center"], [sx, sy - step, "center"], [sx, sy + step, "center"]];
  return [[sx, top - 4, "center"], [sx, bottom + 4, "center"], [sx, sy, "center"]];
}

/** Spots a little further from an area's centre, for a name its middle spots would put over
 *  a topic: two steps up and down, half a name's width to either side, and the corners. */
function aroundSpots(sx, sy, w, step) {
  const dx = w / 2 + 10, dy = step * 2;
  return [[sx, sy - dy, "center"], [sx, sy + dy, "center"], [sx - dx, sy, "center"], [sx + dx, sy, "center"],
    [sx - dx, sy - step, "center"], [sx + dx, sy - step, "center"], [sx - dx, sy + step, "center"],
    [sx + dx, sy + step, "center"]];
}

/** The four spots beside a disc: right, left, above, below. */
function sides(sx, sy, gap) {
  return [[sx + gap, sy, "left"], [sx - gap, sy, "right"], [sx, sy - gap - 4, "center"], [sx, sy + gap + 4, "center"]];
}

/** The four corner spots around a disc, after the four sides (a map's eight positions). */
function corners(sx, sy, gap) {
  const d = gap * 0.7, v = gap + 4;  // as far up or down as the spots above and below
  return [[sx + d, sy - v, "left"], [sx + d, sy + v, "left"], [sx - d, sy - v, "right"], [sx - d, sy + v, "right"]];
}

/** A satellite's label spots, pointing away from its topic (dx, dy: from the topic to it). */
function outwards(sx, sy, gap, dx, dy) {
  const side = dx >= 0 ? [[sx + gap, sy, "left"], [sx - gap, sy, "right"]] : [[sx - gap, sy, "right"], [sx + gap, sy, "left"]];
  const vertical = dy >= 0 ? [[sx, sy + gap + 4, "center"], [sx, sy - gap - 4, "center"]]
    : [[sx, sy - gap - 4, "center"], [sx, sy + gap + 4, "center"]];
  return Math.abs(dx) >= Math.abs(dy) ? [side[0], ...vertical, side[1]] : [vertical[0], ...side, vertical[1]];
}

function fullText(model, i) {
  const node = model.nodes[i];
  return String(node.title || node.text);
}

function labelText(model, i) {
  const texts = model.shortTexts || (model.shortTexts = new Array(model.n));
  const node = model.nodes[i];
  return texts[i] || (texts[i] = shortText(node.title || node.text));
}

function halo(ctx, text, x, y, fill, ground) {
  ctx.lineWidth = 3.5;
  ctx.strokeStyle = ground;
  ctx.strokeText(text, x, y);
  ctx.fillStyle = fill;
  ctx.fillText(text, x, y);
}
