// The home graph on Canvas 2D: one requestAnimationFrame loop that runs only while something
// changes (a drag, a zoom, a fly-to) and sleeps otherwise; only what is on screen is drawn.
// Draw order: cluster washes, edges, nodes (batched per state), then screen-space labels. With a
// node selected — or several (`picked`: Shift/Ctrl/Cmd+click, Shift+Enter in search) — their
// local graph (depth 1–3, `depth`) is drawn over the rest, which is dimmed to DIM, and framed.
// The camera frames what is shown: the selection's local graph, the filtered nodes, or all.

import { hitTest, nodesIn } from "./model.js";
import { Camera } from "./camera.js";
import { drawClusters, drawEdges, drawNodes, drawRings } from "./draw.js";
import { drawLabels } from "./labels.js";
import { neighbourhood } from "./local.js";
import { palette } from "./palette.js";
import { bindInput } from "./input.js";
import { frameOf, shownIndices } from "./frame.js";

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
    this.canvas.setAttribute("aria-label",
      `Your map: ${model.n === 1 ? "1 topic or idea" : `${model.n} topics and ideas`} in ${model.regions.length === 1 ? "1 region" : `${model.regions.length} regions`}. Arrow keys move between linked topics, Enter opens one; or use the search box.`);
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
    this.frame(shownIndices(neighbourhood(this.model, i, 1), this.show), i);
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

  /** Frame the selection's local graph (what the filters let through of it). */
  frameFocus() {
    const anchor = this.selected >= 0 ? this.selected : [...this.picked][0];
    this.frame(shownIndices(this.focus, this.show), anchor);
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

  nodeAt(sx, sy) {
    if (!this.model) return -1;
    const [x, y] = this.camera.toWorld(sx, sy, this.width, this.height);
    const i = hitTest(this.model, x, y, 6 / this.camera.k);
    return i >= 0 && this.show && !this.show[i] ? -1 : i;
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
    if (focus) {
      // The rest of the graph stays as context, faint; the local graph is drawn over it.
      ctx.globalAlpha = DIM;
      drawEdges(ctx, model, colors, k, box, { show });
      drawNodes(ctx, model, colors, k, visible);
      ctx.globalAlpha = 1;
      drawEdges(ctx, model, colors, k, box, { show, focus, selected, picked, width: 1.4 });
      drawNodes(ctx, model, colors, k, visible.filter((i) => focus[i]));
    } else {
      drawEdges(ctx, model, colors, k, box, { show, selected });
      drawNodes(ctx, model, colors, k, visible);
    }
    drawRings(ctx, model, colors, k, selected, this.hovered, this.marked, picked);
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

