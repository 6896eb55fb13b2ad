// The home graph on Canvas 2D: one requestAnimationFrame loop that runs only while something
// changes (a drag, a zoom, a fly-to) and sleeps otherwise; only what is on screen is drawn.
// Draw order: cluster washes, edges, nodes (batched per state), then screen-space labels.

import { hitTest, nodesIn } from "./model.js";
import { Camera } from "./camera.js";
import { drawLabels } from "./labels.js";
import { palette } from "./palette.js";
import { bindInput } from "./input.js";

export class GraphCanvas {
  constructor(host, { onSelect, onHover } = {}) {
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
    this.hovered = -1;
    this.marked = new Set();  // search hits: always labelled
    this.onSelect = onSelect || (() => {});
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
    this.hovered = -1;
    this.canvas.setAttribute("aria-label",
      `Knowledge graph: ${model.n} propositions in ${model.clusters.length} clusters. Use the search box to find one.`);
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
    if (fly && i >= 0) this.camera.flyTo(this.model.xs[i], this.model.ys[i], this.focusZoom());
    this.invalidate();
    this.onSelect(i >= 0 ? this.model.nodes[i] : null);
  }

  focusZoom() {
    // Close enough that labels read, never further out than now.
    return Math.max(this.camera.k, 90 / this.model.unit);
  }

  nodeAt(sx, sy) {
    if (!this.model) return -1;
    const [x, y] = this.camera.toWorld(sx, sy, this.width, this.height);
    return hitTest(this.model, x, y, 6 / this.camera.k);
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
    const visible = nodesIn(model, minX - margin, minY - margin, maxX + margin, maxY + margin, this.visible);
    drawEdges(ctx, model, colors, k, minX - margin, minY - margin, maxX + margin, maxY + margin, this.selected);
    drawNodes(ctx, model, colors, k, visible);
    drawRings(ctx, model, colors, k, this.selected, this.hovered, this.marked);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    drawLabels(this, visible);
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

function drawClusters(ctx, model, colors, k, minX, minY, maxX, maxY) {
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

function drawEdges(ctx, model, colors, k, minX, minY, maxX, maxY, selected) {
  const { xs, ys, edges } = model;
  if (!edges.length) return;
  ctx.beginPath();
  const highlight = [];
  for (let e = 0; e < edges.length; e += 2) {
    const a = edges[e], b = edges[e + 1];
    const ax = xs[a], ay = ys[a], bx = xs[b], by = ys[b];
    if ((ax < minX && bx < minX) || (ax > maxX && bx > maxX) ||
        (ay < minY && by < minY) || (ay > maxY && by > maxY)) continue;
    if (a === selected || b === selected) highlight.push(a, b);
    ctx.moveTo(ax, ay);
    ctx.lineTo(bx, by);
  }
  ctx.lineWidth = 1 / k;
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

function drawNodes(ctx, model, colors, k, visible) {
  const { xs, ys, radius, state } = model;
  const tiny = 1.3 / k;  // below ~1.3 px a node is a square dot: far cheaper than an arc
  for (let s = 0; s < 4; s++) {
    const diamond = s === 1 || s === 3;
    const outline = s >= 2;
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
      ctx.lineWidth = 1.5 / k;
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

function drawRings(ctx, model, colors, k, selected, hovered, marked) {
  const ring = (i, color, width, gap) => {
    const r = Math.max(model.radius[i], 2 / k) + gap / k;
    ctx.beginPath();
    ctx.arc(model.xs[i], model.ys[i], r, 0, Math.PI * 2);
    ctx.lineWidth = width / k;
    ctx.strokeStyle = color;
    ctx.stroke();
  };
  for (const i of marked) ring(i, colors.mark, 1.5, 3);
  if (hovered >= 0 && hovered !== selected) ring(hovered, colors.ink3, 1.5, 3);
  if (selected >= 0) ring(selected, colors.accent, 2.5, 4);
}
