// The graph's filter control (floating top-right): by source folder, by state (solid / shaky /
// not tried / due for review) and by session. It hands the renderer a per-node mask, and says
// whether the learner changed the choice (`changed`: the view re-frames) or the graph was re-read.

import { api } from "./api.js";
import { h, replace } from "./dom.js";
import { state as store } from "./store.js";

const STATE_CHOICES = [["", "Any state"], ["solid", "Solid"], ["shaky", "Shaky"],
  ["not-tried", "Not tried"], ["due", "Due for review"]];

export class GraphFilters {
  constructor(parent, { onChange }) {
    this.onChange = onChange;
    this.data = null;
    this.folderOf = new Map();  // source id -> folder of its note
    this.folder = this.select("Source folder", [["", "All folders"]], "folder");
    this.state = this.select("State", STATE_CHOICES, "state");
    this.session = this.select("Session", [["", "All sessions"]], "session");
    this.summary = h("span.filter-count", "");
    this.root = h("details.graph-filters.graph-float",
      h("summary", { title: "Filter the graph" }, "Filter", this.summary),
      h("div.filter-body", this.folder.parentNode, this.state.parentNode, this.session.parentNode,
        h("button.link-button.filter-clear", { type: "button", onclick: () => this.clear() }, "Show everything")));
    parent.append(this.root);
  }

  select(label, choices, name) {
    const el = h("select", { name, "aria-label": label, onchange: () => this.apply(true) },
      choices.map(([v, text]) => h("option", { value: v }, text)));
    h("label.filter-field", h("span", label), el);
    return el;
  }

  /** A new graph: refresh the folder and session choices, keep the current choice if it still fits. */
  async setData(data) {
    this.data = data;
    let list = [];
    try {
      list = await api.get("/api/sources");
    } catch { /* no folders to offer: the other filters still work */ }
    this.folderOf = new Map(list.map((s) => [s.id, folderOf(s.path || "")]));
    const used = new Set(), sessions = new Set();
    const chats = new Map(store.chats.map((c) => [c.id, c.title || c.topic || "Untitled session"]));
    for (const n of data.nodes) {
      for (const id of n.sources || []) {
        if (this.folderOf.has(id)) used.add(this.folderOf.get(id));
        if (chats.has(id)) sessions.add(id);
      }
    }
    refill(this.folder, [["", "All folders"], ...[...used].sort().map((f) => [f, f || "(top level)"])]);
    refill(this.session, [["", "All sessions"], ...[...sessions].map((id) => [id, chats.get(id)])]);
    this.folder.disabled = !used.size;
    this.session.disabled = !sessions.size;
    await this.apply(false);
  }

  clear() {
    this.folder.value = this.state.value = this.session.value = "";
    this.apply(true);
  }

  async apply(changed = true) {
    const data = this.data;
    if (!data) return;
    const folder = this.folder.value, st = this.state.value, session = this.session.value;
    if (!folder && !st && !session) {
      this.summary.textContent = "";
      this.root.classList.remove("active");
      this.onChange(null, { changed });
      return;
    }
    let due = null;
    if (st === "due") due = await dueNodes();
    const mask = new Uint8Array(data.nodes.length);
    let shown = 0;
    data.nodes.forEach((n, i) => {
      const sources = n.sources || [];
      const ok = (!folder || sources.some((s) => this.folderOf.get(s) === folder)) &&
        (!session || sources.includes(session)) &&
        (!st || (due ? due.has(n.id) : st === "shaky"
          ? n.state === "shaky" || n.state === "corrected-misconception" : n.state === st));
      if (!ok) return;
      mask[i] = 1;
      if ((n.topic ?? -1) === -1) shown += 1;  // topics, as the legend counts them
    });
    this.summary.textContent = ` · ${shown} shown`;
    this.root.classList.add("active");
    this.onChange(mask, { changed });
  }
}

function folderOf(path) {
  const cut = path.replace(/\\/g, "/").lastIndexOf("/");
  return cut > 0 ? path.slice(0, cut) : "";
}

function refill(select, choices) {
  const keep = select.value;
  replace(select, choices.map(([v, text]) => h("option", { value: v }, text)));
  select.value = choices.some(([v]) => v === keep) ? keep : "";
}

async function dueNodes() {
  try {
    const answer = await api.get("/api/review?limit=1000");
    return new Set(answer.due.map((c) => c.node_id));
  } catch {
    return new Set();
  }
}
