// The home graph on Canvas 2D: one requestAnimationFrame loop that runs only while something
// changes (a drag, a zoom, a fly-to) and sleeps otherwise; only what is on screen is drawn.
// Draw order: cluster washes, edges, nodes (batched per state), then screen-space labels. With a
// node selected — or several (`picked`: Shift/Ctrl/Cmd+click, Shift+Enter in search) — their
// local graph (depth 1–3, `depth`) is drawn over the rest, which is dimmed to DIM, and framed.
// The camera frames what is shown: the selection's local graph, the filtered nodes, or all.
// Ideas are their topic's satellites, drawn (and hit) only from topic zoom (satellites.js) —
// but a selected idea's topic keeps its ring at any zoom, so its local graph can be framed.

import { hitTest, nodesIn } from "./model.js";
import { Camera } from "./camera.js";
import { drawClusters, drawEdges, drawNodes, drawRings } from "./draw.js";
import { drawLabels } from "./labels.js";
import { neighbourhood } from "./local.js";
import { palette } from "./palette.js";
import { bindInput } from "./input.js";
import { frameOf, shownIndices } from "./frame.js";
import { drawOrbits, ideasOf, satelliteAlpha, TOPIC_ZOOM } from "./satellites.js";

const DIM = 0.12;  // the rest of the graph behind a local graph: context, not competition

export class GraphCanvas {
  constructor(host, { onSelect, onSelectMany, onHover } = {}) {
    this.host = host;
    this.canvas = document.createElement("canvas");
    this.canvas.className = "graph-canvas";
    this.canvas.tabIndex = 0;
    this.canvas.setAttribute("role", "img");
    host.append(this.canvas);
    this.ctx = this.canvas.getContext("2d", { alpha: false });
    this.camera = new Camera(() => this.invalidate());
    this.model = null;
    this.selected = -1;
    this.picked = new Set();  // several selected nodes (then `selected` is -1), or empty
    this.hovered = -1;
    this.marked = new Set();  // search hits: labelled first
    this.focus = null;  // depth per node around the selection (1 = it), or null
    this.depth = 2;  // links walked from the selection (1–3), the depth control's value
    this.onDepth = () => {};
    this.show = null;  // the filters' per-node mask, or null: everything shown
    this.labelRects = [];  // the label boxes of the last frame, in canvas pixels
    this.floats = [];  // the floating controls labels keep clear of
    this.onSelect = onSelect || (() => {});
    this.onSelectMany = onSelectMany || (() => {});
    this.onHover = onHover || (() => {});
    this.stats = { frames: 0, lastDrawMs: 0, drawn: 0 };
    this.pending = 0;
    this.colors = palette();
    this.visible = [];
    this.satellites = [];  // the ideas drawn in the last frame (none below topic zoom)
    this.drawnTopics = [];  // the topics drawn in the last frame, whose discs names keep off
    this.resize = this.resize.bind(this);
    this.observer = new ResizeObserver(this.resize);
    this.observer.observe(host);
    this.unbind = bindInput(this);
    this.resize();
  }

  setModel(model, { keepCamera = false } = {}) {
    this.model = model;
    this.selected = -1;
    this.picked = new Set();
    this.hovered = -1;
    this.focus = null;
    this.show = null;
    this.canvas.setAttribute("aria-label", mapSummary(model));
    this.camera.setLimits(model, this.width, this.height);
    if (!keepCamera || !this.camera.restore(model)) this.camera.fit(model, this.width, this.height);
    this.invalidate();
  }

  refreshTheme() {
    this.colors = palette();
    this.invalidate();
  }

  resize() {
    const rect = this.host.getBoundingClientRect();
    this.dpr = window.devicePixelRatio || 1;
    this.width = Math.max(1, rect.width);
    this.height = Math.max(1, rect.height);
    this.canvas.width = Math.round(this.width * this.dpr);
    this.canvas.height = Math.round(this.height * this.dpr);
    this.canvas.style.width = `${this.width}px`;
    this.canvas.style.height = `${this.height}px`;
    this.invalidate();
  }

  /** Ask for one frame; many calls before it runs still cost one frame. */
  invalidate() {
    if (this.pending) return;
    this.pending = requestAnimationFrame((t) => {
      this.pending = 0;
      const moving = this.camera.step(t);
      this.draw();
      if (moving) this.invalidate();
      else this.camera.save();
    });
  }

  /** How opaque the satellites are now: 0 below topic zoom (and on a map with no ideas). */
  satelliteAlpha() {
    return this.model?.ideaCount ? satelliteAlpha(this.camera.k * this.model.unit) : 0;
  }

  /** The topic whose satellites are drawn at any zoom: the selected idea's (else -1). */
  heldTopic() {
    const s = this.selected;
    return s >= 0 && this.model ? Math.max(-1, this.model.topicOf[s]) : -1;
  }

  /** The idea edges of topic `t`'s ideas (drawn while its ring is held below topic zoom). */
  heldEdges(t) {
    if (this._held?.t !== t || this._held.model !== this.model) {
      const { ideaEdges, topicOf } = this.model, out = [];
      for (let e = 0; e < ideaEdges.length; e += 2) {
        if (topicOf[ideaEdges[e]] === t || topicOf[ideaEdges[e + 1]] === t) out.push(ideaEdges[e], ideaEdges[e + 1]);
      }
      this._held = { t, model: this.model, edges: Int32Array.from(out) };
    }
    return this._held.edges;
  }

  /** Whether node `i` is on the map now: a topic always, an idea from topic zoom (or when its
   *  topic holds its ring: a sibling is selected). */
  seen(i) {
    const t = i >= 0 && this.model ? this.model.topicOf[i] : -2;
    return t === -1 || (t >= 0 && (this.satelliteAlpha() > 0 || t === this.heldTopic()));
  }

  select(i, { fly = false } = {}) {
    this.selected = i;
    this.picked = new Set();
    this.focus = i >= 0 ? neighbourhood(this.model, i, this.depth) : null;
    if (fly && i >= 0) this.frameFocus();
    this.invalidate();
    this.onDepth();
    this.onSelect(i >= 0 ? this.model.nodes[i] : null);
  }

  /** Add node `i` to the selection of several, or take it out; a node selected alone starts
   *  it. Taking out the last one clears the selection. */
  toggle(i, { fly = false } = {}) {
    if (i < 0 || !this.model) return;
    const picked = new Set(this.picked);
    if (!picked.size && this.selected >= 0) picked.add(this.selected);
    if (picked.has(i)) picked.delete(i);
    else picked.add(i);
    this.pick(picked);
    if (fly && picked.has(i)) this.frameFocus();
  }

  /** Select several nodes at once (indices); none: nothing selected. */
  pick(indices) {
    const picked = new Set(indices);
    if (!picked.size) {
      this.select(-1);
      return;
    }
    this.selected = -1;
    this.picked = picked;
    this.focus = neighbourhood(this.model, picked, this.depth);
    this.invalidate();
    this.onDepth();
    this.onSelectMany([...picked].map((i) => this.model.nodes[i]));
  }

  /** Fly to a node without changing what is selected, close enough to read it and far enough
   *  that its neighbours are on screen too. */
  flyToNode(i) {
    if (i < 0 || !this.model) return;
    if (this.model.topicOf[i] >= 0) this.frameIdea(i);
    else this.frame(shownIndices(neighbourhood(this.model, i, 1), this.show), i);
  }

  /** Fly to an idea's topic, at topic zoom or closer: the idea on its ring, its siblings and
   *  the topic's label in view (the local graph may be larger; framed whole, it would hide it). */
  frameIdea(i) {
    const t = this.model.topicOf[i];
    if (t < 0) return;
    const k = Math.max(this.camera.k, (TOPIC_ZOOM + 30) / this.model.unit);
    this.camera.flyTo(this.model.xs[t], this.model.ys[t], k);
  }

  /** Walk `depth` (1–3) links from the selection: the local graph grows or shrinks, framed. */
  setDepth(depth) {
    this.depth = Math.min(3, Math.max(1, Math.round(depth)));
    if (!this.model) return;
    const roots = this.picked.size ? this.picked : this.selected;
    if (roots !== -1) {
      this.focus = neighbourhood(this.model, roots, this.depth);
      this.frameFocus();
    }
    this.invalidate();
    this.onDepth();
  }

  /** Frame the selection's local graph (what the filters let through of it) — an idea's too:
   *  its ring stays drawn at the zoom that frames it (at depth 1, its topic zoom). */
  frameFocus() {
    const anchor = this.selected >= 0 ? this.selected : [...this.picked][0];
    if (this.model.topicOf[anchor] >= 0 && anchor !== this.selected) this.frameIdea(anchor);
    else this.frame(shownIndices(this.focus, this.show), anchor);
  }

  /** Frame what is shown: the filtered nodes, or the whole graph (`0`, ⤢, after an import). */
  frameShown({ animate = true } = {}) {
    if (!this.model) return;
    if (!this.show) {
      if (animate) this.camera.fitAnimated(this.model, this.width, this.height);
      else this.camera.fit(this.model, this.width, this.height);
      return;
    }
    this.frame(shownIndices(null, this.show), -1, animate);
  }

  frame(indices, anchor = -1, animate = true) {
    const v = frameOf(this.model, indices, this.width, this.height, this.obstacles(), anchor);
    if (!v) return;
    if (animate) this.camera.flyTo(v.x, v.y, v.k);
    else Object.assign(this.camera, { x: v.x, y: v.y, k: this.camera.clampK(v.k) });
    this.invalidate();
  }

  focusZoom() {
    // Close enough that labels read, never further out than now.
    return Math.max(this.camera.k, 90 / this.model.unit);
  }

  /** Keep only the nodes the mask lets through (null: all); `frame`: frame what is shown. */
  setFilter(mask, { frame = true } = {}) {
    this.show = mask;
    if (frame && this.focus) this.frameFocus();
    else if (frame) this.frameShown();
    this.invalidate();
  }

  /** The floating controls' boxes in canvas pixels: labels are never placed under them. */
  obstacles() {
    const origin = this.canvas.getBoundingClientRect();
    return this.floats.filter((el) => el.isConnected && !el.hidden).map((el) => {
      const r = el.getBoundingClientRect();
      return { x: r.left - origin.left, y: r.top - origin.top, w: r.width, h: r.height };
    }).filter((r) => r.w > 0 && r.h > 0);
  }

  /** The node under a screen point. `names`: a name drawn there counts (a click; the hover
   * does not follow names, as the hovered node's name is placed first and may move away). */
  nodeAt(sx, sy, { names = false } = {}) {
    if (!this.model) return -1;
    const [x, y] = this.camera.toWorld(sx, sy, this.width, this.height);
    const { show, model } = this;
    const slop = 6 / this.camera.k;
    // A name is drawn over everything, sometimes over another topic's disc (when no clear spot
    // was free): a click on it means the node it names.
    for (const r of names ? this.labelRects || [] : []) {
      if (r.node >= 0 && sx >= r.x && sx <= r.x + r.w && sy >= r.y && sy <= r.y + r.h
          && (!show || show[r.node])) return r.node;
    }
    // Satellites are drawn over the topics (a big topic's disc may reach under its neighbour's
    // ring): they are hit first.
    const held = this.heldTopic();
    if (this.satelliteAlpha() > 0 || held >= 0) {
      const idea = hitTest(model, x, y, slop, (i) => model.topicOf[i] >= 0 && this.seen(i) && (!show || show[i]));
      if (idea >= 0) return idea;
    }
    return hitTest(model, x, y, slop, (i) => model.topicOf[i] === -1 && (!show || show[i]));
  }

  draw() {
    const started = performance.now();
    const { ctx, model, camera, colors } = this;
    const dpr = this.dpr;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = colors.bg;
    ctx.fillRect(0, 0, this.width, this.height);
    if (!model || !model.n) return;
    const k = camera.k;
    const [minX, minY] = camera.toWorld(0, 0, this.width, this.height);
    const [maxX, maxY] = camera.toWorld(this.width, this.height, this.width, this.height);
    const margin = model.unit;
    ctx.setTransform(dpr * k, 0, 0, dpr * k, dpr * (this.width / 2 - camera.x * k),
      dpr * (this.height / 2 - camera.y * k));
    drawClusters(ctx, model, colors, k, minX, minY, maxX, maxY);
    const box = [minX - margin, minY - margin, maxX + margin, maxY + margin];
    let visible = nodesIn(model, ...box, this.visible);
    const { show, focus, selected } = this;
    const picked = this.picked.size ? this.picked : null;
    if (show) visible = visible.filter((i) => show[i]);
    const sat = this.satelliteAlpha();
    const held = this.heldTopic();
    let ideas = [];
    if (model.ideaCount) {
      const { topicOf } = model;
      if (sat > 0) ideas = visible.filter((i) => topicOf[i] >= 0);
      else if (held >= 0) ideas = [...ideasOf(model, held)].filter((i) => !show || show[i]);
      visible = visible.filter((i) => topicOf[i] === -1);
    }
    this.satellites = ideas;
    this.drawnTopics = visible;  // the labels keep off their discs
    const paint = (topics, moons, options) => {
      drawEdges(ctx, model, colors, k, box, { ...options, edges: model.mapEdges });
      drawNodes(ctx, model, colors, k, topics);
      if (!moons.length) return;
      const alpha = ctx.globalAlpha;
      ctx.globalAlpha = alpha * (held >= 0 ? 1 : sat);
      drawEdges(ctx, model, colors, k, box, { ...options, edges: sat > 0 ? model.ideaEdges : this.heldEdges(held) });
      drawOrbits(ctx, model, colors, k, sat > 0 ? topics : topics.filter((t) => t === held));
      drawNodes(ctx, model, colors, k, moons);
      ctx.globalAlpha = alpha;
    };
    if (focus) {
      // The rest of the graph stays as context, faint; the local graph is drawn over it.
      ctx.globalAlpha = DIM;
      paint(visible, ideas, { show });
      ctx.globalAlpha = 1;
      paint(visible.filter((i) => focus[i]), ideas.filter((i) => focus[i]),
        { show, focus, selected, picked, width: 1.4 });
    } else {
      paint(visible, ideas, { show, selected });
    }
    const seen = (i) => (this.seen(i) ? i : -1);
    drawRings(ctx, model, colors, k, seen(selected), seen(this.hovered),
      [...this.marked].filter((i) => this.seen(i)), picked && new Set([...picked].filter((i) => this.seen(i))));
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    drawLabels(this, show);
    if (!this.stats.firstFrameAt) this.stats.firstFrameAt = performance.now();
    this.stats.frames += 1;
    this.stats.drawn = visible.length;
    this.stats.lastDrawMs = performance.now() - started;
  }

  destroy() {
    cancelAnimationFrame(this.pending);
    this.observer.disconnect();
    this.unbind();
    this.canvas.remove();
  }
}

/** The canvas's name: what the map holds, in the learner's words. */
function mapSummary(model) {
  const topics = model.topics === 1 ? "1 topic" : `${model.topics} topics`;
  const regions = model.regions.length === 1 ? "1 region" : `${model.regions.length} regions`;
  const ideas = !model.ideaCount ? ""
    : ` (and ${model.ideaCount === 1 ? "1 idea" : `${model.ideaCount} ideas`} inside them, shown when you zoom into a topic)`;
  return `Your map: ${topics} in ${regions}${ideas}. Arrow keys move between linked topics, Enter opens one; or use the search box.`;
}
