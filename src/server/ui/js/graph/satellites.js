// Ideas as satellites (issue 28): an idea — a node tied to a topic by a `supports` edge, named
// by the map's `topic` column — is no map node of its own. At whole-graph and region zoom it is
// not drawn, not named and not hit; from topic zoom each topic's ideas sit on rings around it,
// coloured by their own state, leaving a wedge on the topic's right free for the topic's label.

import { topicGrid } from "./separate.js";

// Topic zoom, in screen px per typical topic spacing. At 90 px a topic's cell holds a ring of
// 4–5 px dots a dozen px apart, clear of the next topic, and every topic is already named (from
// 44 px, labels.js); selecting a lone topic frames it at 110 (frame.js), inside this zoom.
export const TOPIC_ZOOM = 90;
const FADE_FROM = 76;  // satellites fade in over the last steps of a zoom in
const DOT = 0.05;  // a satellite's radius, in spacings (4.5 px at topic zoom)
const GAP = 0.14;  // from the topic's dot to its first ring, in spacings
const STEP = 0.14;  // between satellites along a ring and between rings, in spacings
// A topic with little room draws its rings smaller — gap, spacing and dots alike — down to half
// (2.3 px dots at topic zoom, larger as the learner zooms in); the map keeps topics apart by
// their rings at that size (separate.js).
const SCALES = [1, 0.85, 0.7, 0.6, 0.5];
const MIN_SCALE = SCALES[SCALES.length - 1];
// Half the band the topic's label takes on its right (18 px high, 2 px spare) from the zoom the
// satellites appear at: closer in, the band is narrower in world units and stays clear.
const LABEL_HALF = 11 / FADE_FROM;

const smooth = (t) => (t <= 0 ? 0 : t >= 1 ? 1 : t * t * (3 - 2 * t));

/** How opaque the satellites are at zoom `z` (screen px per spacing): 0 is "not shown". */
export function satelliteAlpha(z) {
  return smooth((z - FADE_FROM) / (TOPIC_ZOOM - FADE_FROM));
}

/** Per node: an idea's topic index; -1 for a topic; -2 for an idea whose topic is not in this
 *  part of the map (it stays hidden until the part holding its topic arrives). */
export function topicsOf(nodes) {
  const n = nodes.length;
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const t = nodes[i].topic ?? -1;
    out[i] = t < 0 ? -1 : t < n && t !== i ? t : -2;
  }
  return out;
}

/** Lay each topic's ideas out on rings around it (world units): sets their x, y and radius in
 *  `model`, and returns the ideas per topic (compressed rows) and each topic's rings. A topic's
 *  rings keep to its own room — half the way to the nearest other topic, clear of that one's
 *  disc — drawn smaller where there is little (down to MIN_SCALE, then they go on outwards). */
export function placeSatellites(model, rows = ideaRows(model.topicOf)) {
  const { n, xs, ys, radius, state, unit } = model;
  const { offsets: count, list } = rows;
  const roomOf = topicRoom(model);
  const rings = new Map();  // topic -> [[radius, wedge], ...]
  for (let t = 0; t < n; t++) {
    let at = count[t];
    const end = count[t + 1];
    if (at === end) continue;
    const room = roomOf(t);
    const scale = SCALES.find((k) => outerRing(end - at, radius[t], unit, k) <= room) ?? MIN_SCALE;
    const step = STEP * unit * scale, dot = DOT * unit * scale;
    const own = [];
    for (let r = firstRing(radius[t], unit, scale); at < end; r += step) {
      const wedge = wedgeAt(r, unit);
      const arc = Math.PI * 2 - wedge * 2;
      const m = Math.min(end - at, Math.max(1, Math.floor((arc * r) / step)));
      for (let j = 0; j < m; j++, at++) {
        const i = list[at];
        const angle = wedge + (arc * (j + 0.5)) / m;
        xs[i] = xs[t] + Math.cos(angle) * r;
        ys[i] = ys[t] + Math.sin(angle) * r;
        radius[i] = dot * (state[i] !== 2 ? 1.2 : 1);  // learned ones a touch larger
      }
      own.push([r, wedge]);
    }
    rings.set(t, own);
  }
  return { ideas: rows, rings };
}

/** Each topic's ideas, in importance order, as compressed rows: `list[offsets[t]..offsets[t+1]]`. */
export function ideaRows(topicOf) {
  const n = topicOf.length;
  const offsets = new Uint32Array(n + 1);
  for (let i = 0; i < n; i++) if (topicOf[i] >= 0) offsets[topicOf[i] + 1] += 1;
  for (let i = 0; i < n; i++) offsets[i + 1] += offsets[i];
  const fill = offsets.slice();
  const list = new Int32Array(offsets[n]);
  for (let i = 0; i < n; i++) if (topicOf[i] >= 0) list[fill[topicOf[i]]++] = i;
  return { offsets, list };
}

/** How far each topic reaches on the map (world units): its outer ring of ideas at their
 *  smallest, else its disc (a diamond's tips); 0 for an idea. */
export function reachOf(model, rows) {
  const { n, radius, unit, topicOf } = model;
  const reach = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    if (topicOf[t] !== -1) continue;
    const ideas = rows.offsets[t + 1] - rows.offsets[t];
    reach[t] = ideas ? outerRing(ideas, radius[t], unit, MIN_SCALE) : radius[t] * 1.25;
  }
  return reach;
}

function firstRing(r, unit, scale) {
  return r * 1.25 + GAP * unit * scale;  // past a diamond's tips
}

/** The wedge left free on a ring's right at radius `r`: the topic's label band plus a dot. */
function wedgeAt(r, unit) {
  return Math.asin(Math.min(1, (LABEL_HALF + DOT) * unit / r));
}

/** How far out (plus a dot) `count` ideas reach around a topic of radius `r` at `scale`. */
function outerRing(count, r, unit, scale) {
  const step = STEP * unit * scale;
  let ring = firstRing(r, unit, scale);
  for (let left = count; ; ring += step) {
    left -= Math.max(1, Math.floor(((Math.PI * 2 - wedgeAt(ring, unit) * 2) * ring) / step));
    if (left <= 0) return ring + DOT * unit * scale;
  }
}

/** Per topic with ideas, how far out its rings may reach: half the way to the nearest other
 *  topic and short of that topic's disc (a diamond's tips), found on the grid of topics. */
function topicRoom(model) {
  const { n, xs, ys, radius, unit, topicOf } = model;
  const topics = [];
  for (let i = 0; i < n; i++) if (topicOf[i] === -1) topics.push(i);
  const grid = topicGrid(topics, xs, ys, unit * 2);
  return (t) => {
    let room = grid.size;  // nothing within a cell: room enough for any ring that fits in one
    grid.near(t, (j) => {
      if (j === t) return;
      const d = Math.hypot(xs[t] - xs[j], ys[t] - ys[j]);
      room = Math.min(room, d / 2, d - radius[j] * 1.25 - DOT * unit);
    });
    return room;
  };
}

/** The ideas of topic `t` (indices). */
export function ideasOf(model, t) {
  const { offsets, list } = model.ideas;
  return list.subarray(offsets[t], offsets[t + 1]);
}

/** Faint orbits under the satellites of the `topics` on screen, each ring's arc outside its
 *  label wedge, so a ring reads as belonging to its topic. */
export function drawOrbits(ctx, model, colors, k, topics) {
  ctx.beginPath();
  for (const t of topics) {
    const own = model.rings.get(t);
    if (!own) continue;
    for (const [r, wedge] of own) {
      const x = model.xs[t], y = model.ys[t];
      ctx.moveTo(x + Math.cos(wedge) * r, y + Math.sin(wedge) * r);
      ctx.arc(x, y, r, wedge, Math.PI * 2 - wedge);
    }
  }
  ctx.lineWidth = 1 / k;
  ctx.strokeStyle = colors.edge;
  ctx.stroke();
}
