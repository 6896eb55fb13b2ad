// Small SVG plots drawn from data, no library and no network: a frame with labelled axes and
// quiet gridlines, then lines, dots and bars on it. Colours come from CSS classes (the theme's
// tokens), so light and dark need nothing here.

import { svg } from "./dom.js";

const MARGIN = { top: 28, right: 18, bottom: 40, left: 46 };

/** A plot area `width` × `height` over x in [x0, x1] and y in [y0, y1]. */
export function frame({ width, height, x: [x0, x1], y: [y0, y1], label }) {
  const left = MARGIN.left;
  const right = width - MARGIN.right;
  const top = MARGIN.top;
  const bottom = height - MARGIN.bottom;
  const sx = (v) => left + ((v - x0) / ((x1 - x0) || 1)) * (right - left);
  const sy = (v) => bottom - ((v - y0) / ((y1 - y0) || 1)) * (bottom - top);
  const root = svg("svg", { class: "plot", width, height, viewBox: `0 0 ${width} ${height}`,
    role: "img", "aria-label": label });
  return { root, sx, sy, left, right, top, bottom, width, height };
}

/** Horizontal gridlines with their labels on the left, and the y axis title above them. */
export function yAxis(f, ticks, title) {
  const g = svg("g", { class: "axis y-axis" });
  for (const [value, text] of ticks) {
    const y = f.sy(value);
    g.append(svg("line", { class: "grid", x1: f.left, x2: f.right, y1: y, y2: y }));
    g.append(text_(f.left - 8, y + 4, text, "end"));
  }
  if (title) g.append(text_(f.left - 8, f.top - 16, title, "start", "axis-title"));
  f.root.append(g);
}

/** Labels under the x axis at the given positions, and the axis title below them. */
export function xAxis(f, ticks, title) {
  const g = svg("g", { class: "axis x-axis" });
  g.append(svg("line", { class: "baseline", x1: f.left, x2: f.right, y1: f.bottom, y2: f.bottom }));
  for (const [value, text, anchor = "middle"] of ticks) {
    g.append(text_(f.sx(value), f.bottom + 15, text, anchor));
  }
  if (title) g.append(text_((f.left + f.right) / 2, f.height - 6, title, "middle", "axis-title"));
  f.root.append(g);
}

/** A dashed reference line across the plot (a threshold, a target) with its label. */
export function reference(f, y, label) {
  const at = f.sy(y);
  f.root.append(svg("line", { class: "reference", x1: f.left, x2: f.right, y1: at, y2: at }));
  f.root.append(text_(f.left + 6, at - 5, label, "start", "reference-label"));
}

/** A line through points `[[x, y|null], ...]`, broken where y is null, with an optional wash
 * down to y0 and a dot on every point (or on the last one only). */
export function line(f, points, { area = false, y0 = 0, dots = "last", cls = "" } = {}) {
  const runs = [];
  let run = [];
  for (const [x, y] of points) {
    if (y === null || y === undefined) {
      if (run.length) runs.push(run);
      run = [];
    } else {
      run.push([f.sx(x), f.sy(y)]);
    }
  }
  if (run.length) runs.push(run);
  const g = svg("g", { class: `series ${cls}` });
  for (const r of runs) {
    const d = r.map(([x, y], i) => `${i ? "L" : "M"}${x.toFixed(1)} ${y.toFixed(1)}`).join("");
    if (area && r.length > 1) {
      const base = f.sy(y0).toFixed(1);
      g.append(svg("path", { class: "area", d: `${d}L${r.at(-1)[0].toFixed(1)} ${base}L${r[0][0].toFixed(1)} ${base}Z` }));
    }
    if (r.length > 1) g.append(svg("path", { class: "line", d }));
  }
  const all = runs.flat();
  for (const [x, y] of dots === "all" ? all : all.slice(-1)) {
    g.append(svg("circle", { class: "dot", cx: x.toFixed(1), cy: y.toFixed(1), r: 3.5 }));
  }
  f.root.append(g);
}

/** Bars centred on integer x positions; `slots` bars share the width. */
export function bars(f, values, { slots, cls = "", classOf = () => "" } = {}) {
  const step = (f.right - f.left) / slots;
  const width = Math.max(2, step * 0.68);
  const g = svg("g", { class: `series bars ${cls}` });
  values.forEach(([x, from, to], i) => {
    if (to <= from) return;
    const top = f.sy(to);
    g.append(svg("rect", { class: `bar ${classOf(i)}`, x: (f.sx(x) - width / 2).toFixed(1),
      y: top.toFixed(1), width: width.toFixed(1), height: Math.max(1, f.sy(from) - top).toFixed(1), rx: 2 }));
  });
  f.root.append(g);
}

/** A round upper bound for counts, and three ticks up to it. */
export function countTicks(max) {
  const steps = [1, 2, 4, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000];
  const top = steps.find((s) => s >= max) ?? Math.ceil(max / 1000) * 1000;
  const ticks = top % 2 ? [0, top] : [0, top / 2, top];
  return { top, ticks: ticks.map((t) => [t, String(t)]) };
}

/** SVG text; a "\n" starts a second, quieter line under the first. */
function text_(x, y, content, anchor = "start", cls = "") {
  const t = svg("text", { x: x.toFixed(1), y: y.toFixed(1), "text-anchor": anchor, class: cls || null });
  const [first, ...rest] = String(content).split("\n");
  t.textContent = first;
  for (const more of rest) {
    const span = svg("tspan", { x: x.toFixed(1), dy: 13, class: "second" });
    span.textContent = more;
    t.append(span);
  }
  return t;
}
