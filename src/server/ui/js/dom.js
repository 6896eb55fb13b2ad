// Tiny DOM helpers: build elements from data without ever parsing strings as HTML.
// The one place HTML strings are inserted is markdown.js, after sanitizing.

/** h("button.primary", {onclick, "aria-label": "x"}, "text", child, [children]) */
export function h(tag, attrs, ...children) {
  const [name, ...classes] = tag.split(".");
  const el = document.createElement(name || "div");
  if (classes.length) el.className = classes.join(" ");
  if (attrs && (typeof attrs !== "object" || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = null;
  }
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      el.className = [el.className, value].filter(Boolean).join(" ");
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else if (key === "text") {
      el.textContent = value;
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
  append(el, children);
  return el;
}

export function append(parent, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

export function replace(el, ...children) {
  clear(el);
  return append(el, children);
}

const SVG_NS = "http://www.w3.org/2000/svg";

export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null) el.setAttribute(key, String(value));
  }
  for (const child of children.flat()) if (child) el.append(child);
  return el;
}

/** The understanding-state glyph used everywhere (graph legend, node panel, plan, review). */
export function stateGlyph(state, size = 14) {
  const r = size / 2 - 1.5;
  const c = size / 2;
  const shape = (state === "shaky" || state === "corrected-misconception")
    ? svg("path", { d: diamond(c, c, r + 0.6) })
    : svg("circle", { cx: c, cy: c, r });
  const mark = state === "corrected-misconception"
    ? svg("circle", { cx: c, cy: c, r: Math.max(1.2, r / 3), class: "mark" }) : null;
  return svg("svg", {
    class: `glyph state-${state}`, width: size, height: size, viewBox: `0 0 ${size} ${size}`,
    "aria-hidden": "true",
  }, shape, mark);
}

function diamond(cx, cy, r) {
  return `M${cx} ${cy - r}L${cx + r} ${cy}L${cx} ${cy + r}L${cx - r} ${cy}Z`;
}

/** A source's kind in the learner's words: on the shelf, and before a citation's path. */
export const SOURCE_KINDS = { note: "Note", transcript: "Lecture", pdf: "PDF", text: "Text" };

export const STATE_LABELS = {
  "solid": "Solid",
  "shaky": "Shaky",
  "not-tried": "Not tried",
  "corrected-misconception": "Corrected misconception",
};

export function stateBadge(state) {
  return h("span.state-badge", { class: `state-${state}` }, stateGlyph(state),
    STATE_LABELS[state] || state);
}

const RELATIVE = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

export function relativeTime(iso) {
  const then = new Date(iso);
  if (Number.isNaN(then.getTime())) return "";
  const seconds = (then.getTime() - Date.now()) / 1000;
  const steps = [[60, "second"], [60, "minute"], [24, "hour"], [7, "day"], [4.35, "week"],
    [12, "month"], [Infinity, "year"]];
  let value = seconds;
  for (const [size, unit] of steps) {
    if (Math.abs(value) < size) return RELATIVE.format(Math.round(value), unit);
    value /= size;
  }
  return "";
}

export function formatDate(iso) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : d.toLocaleString(undefined,
    { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

export function money(usd) {
  if (usd === null || usd === undefined) return null;  // absence is not zero
  return usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

export function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

/** What part of the graph holds, in the map's words: "36 topics", "1 topic and 4 ideas". */
export function topicsAndIdeas(topics, ideas) {
  if (!topics) return plural(ideas, "idea");
  return ideas ? `${plural(topics, "topic")} and ${plural(ideas, "idea")}` : plural(topics, "topic");
}

export function newId(prefix) {
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  return `${prefix}_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** Is the keyboard focus in something the learner types into? (shortcuts stay out of it) */
export function typing(target = document.activeElement) {
  if (!target) return false;
  const tag = target.tagName;
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || target.isContentEditable;
}
