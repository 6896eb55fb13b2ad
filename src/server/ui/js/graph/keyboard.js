// Walking the map from the keyboard: with the map focused, the first arrow lands on a node (the
// one selected, else the most important one on screen); each arrow then moves to the linked
// neighbour that lies that way (else the nearest shown node that way); Enter opens it in the
// dock. The node under the keyboard is drawn as hovered, kept on screen and read out. From topic
// zoom the arrows reach a topic's ideas too (its satellites): a topic, its ideas and each
// other are one step apart; below it the walk stays on topics.

import { adjacencyOf } from "./local.js";
import { ideasOf } from "./satellites.js";

const WAYS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** The node one step from `from` towards `way` ([dx, dy]): a linked node first (with
 *  `ideas`, the satellites of its topic too), then any topic. */
export function stepFrom(model, from, [ux, uy], shown = null, ideas = false) {
  const adj = model.adjacency || (model.adjacency = adjacencyOf(model.n, model.edges));
  const topicOf = model.topicOf;
  const best = (candidates) => {
    let found = -1;
    let score = Infinity;
    for (const j of candidates) {
      if (j === from || (shown && !shown[j])) continue;
      if (topicOf && topicOf[j] !== -1 && (!ideas || topicOf[j] < 0)) continue;  // not on the map now
      const dx = model.xs[j] - model.xs[from], dy = model.ys[j] - model.ys[from];
      const along = dx * ux + dy * uy;
      const across = Math.abs(dx * uy - dy * ux);
      if (along <= 0 || across > 2 * along) continue;  // not that way
      const s = Math.hypot(dx, dy) * (1 + across / along);
      if (s < score) { score = s; found = j; }
    }
    return found;
  };
  let linked = adj.list.subarray(adj.offsets[from], adj.offsets[from + 1]);
  const home = topicOf ? (topicOf[from] >= 0 ? topicOf[from] : from) : -1;
  if (ideas && home >= 0 && model.ideas) linked = [...linked, home, ...ideasOf(model, home)];
  const near = best(linked);
  return near >= 0 ? near : best(model.order);
}

/** The topics `i` links to (its ties to its own ideas are no links). */
function linksOf(model, i) {
  const adj = model.adjacency || (model.adjacency = adjacencyOf(model.n, model.edges));
  let n = 0;
  for (let p = adj.offsets[i]; p < adj.offsets[i + 1]; p++) if (model.topicOf[adj.list[p]] === -1) n += 1;
  return n;
}

function onScreen(view, i) {
  const [sx, sy] = view.camera.toScreen(view.model.xs[i], view.model.ys[i], view.width, view.height);
  return sx > 40 && sy > 40 && sx < view.width - 40 && sy < view.height - 40;
}

function firstNode(view) {
  if (view.selected >= 0 && view.seen(view.selected)) return view.selected;
  const shown = (i) => !view.show || view.show[i];
  return view.model.order.find((i) => shown(i) && onScreen(view, i)) ?? view.model.order.find(shown) ?? -1;
}

/** Keyboard walking for `view` (a GraphCanvas); `speak` reads a line out (a live region). */
export function mapKeyboard(view, speak) {
  let at = -1;
  const land = (i) => {
    if (i < 0) return;
    at = i;
    view.hovered = i;
    view.onHover(view.model.nodes[i]);
    if (!onScreen(view, i)) view.camera.flyTo(view.model.xs[i], view.model.ys[i], view.camera.k);
    view.invalidate();
    const node = view.model.nodes[i];
    const t = view.model.topicOf[i];
    if (t >= 0) {
      speak(`${node.text}: an idea in ${view.model.nodes[t].text}. Enter opens it.`);
      return;
    }
    const n = linksOf(view.model, i);
    speak(`${node.text}: ${n} ${n === 1 ? "link" : "links"}. Enter opens it.`);
  };
  return {
    /** Handle an arrow or Enter; true when the key was used. */
    key(event) {
      if (!view.model?.n || event.altKey || event.ctrlKey || event.metaKey) return false;
      if (at >= view.model.n) at = -1;  // a new map: start again
      const way = WAYS[event.key];
      if (way && !event.shiftKey) {
        land(at < 0 ? firstNode(view) : stepFrom(view.model, at, way, view.show, view.satelliteAlpha() > 0));
        return true;
      }
      if (event.key === "Enter" && at >= 0) {
        view.select(at, { fly: true });
        return true;
      }
      return false;
    },
    forget() { at = -1; },
  };
}
