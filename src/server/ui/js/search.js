// The graph's search box (floating top-left; "/" focuses it). Asks the server (meaning +
// words); arrow keys move through the results, Enter flies to one (Shift+Enter, or a Shift+click,
// adds it to a selection of several instead), Escape clears.

import { api } from "./api.js";
import { h, replace, stateGlyph } from "./dom.js";

export class GraphSearch {
  constructor(parent, { onPick, onMarks, stateOf }) {
    this.onPick = onPick;
    this.stateOf = stateOf || (() => null);
    this.onMarks = onMarks;
    this.results = [];
    this.active = -1;
    this.seq = 0;
    this.input = h("input.search-input", {
      type: "search", placeholder: "Search your graph", "aria-label": "Search the knowledge graph",
      autocomplete: "off", spellcheck: "false", role: "combobox", "aria-expanded": "false",
      "aria-controls": "graph-search-results", "aria-autocomplete": "list",
      dataset: { slashTarget: "1" },
    });
    this.list = h("ul.search-results", { id: "graph-search-results", role: "listbox", hidden: true });
    this.root = h("div.graph-search", h("span.search-key", { "aria-hidden": "true" }, "/"), this.input, this.list);
    parent.append(this.root);
    this.input.addEventListener("input", () => this.schedule());
    this.input.addEventListener("keydown", (e) => this.key(e));
  }

  focus() {
    this.input.focus();
    this.input.select();
  }

  schedule() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(), 140);
  }

  async run() {
    const q = this.input.value.trim();
    const seq = ++this.seq;
    if (!q) {
      this.show([]);
      return;
    }
    let results = [];
    try {
      const answer = await api.get(`/api/graph/search?q=${encodeURIComponent(q)}&limit=8`);
      results = answer.results;
    } catch (error) {
      results = [];
      this.error = error.message;
    }
    if (seq === this.seq) this.show(results, q);
  }

  show(results, q = "") {
    this.results = results;
    this.active = results.length ? 0 : -1;
    this.onMarks(results.map((r) => r.id));
    const items = results.map((r, i) => h("li.search-result", {
      role: "option", id: `search-opt-${i}`, "aria-selected": i === this.active ? "true" : "false",
      onmousedown: (e) => {
        e.preventDefault();
        this.pick(i, e.shiftKey || e.ctrlKey || e.metaKey);
      },
    }, stateGlyph(this.stateOf(r.id) || "not-tried", 10), h("span", r.text)));
    if (q && !results.length) items.push(h("li.search-empty", "Nothing matches."));
    replace(this.list, items);
    this.list.hidden = !items.length;
    this.input.setAttribute("aria-expanded", items.length ? "true" : "false");
    this.highlight();
  }

  highlight() {
    [...this.list.querySelectorAll(".search-result")].forEach((li, i) => {
      li.setAttribute("aria-selected", i === this.active ? "true" : "false");
    });
    if (this.active >= 0) this.input.setAttribute("aria-activedescendant", `search-opt-${this.active}`);
    else this.input.removeAttribute("aria-activedescendant");
  }

  pick(i, add = false) {
    const r = this.results[i];
    if (!r) return;
    this.list.hidden = true;
    this.input.setAttribute("aria-expanded", "false");
    this.onPick(r.id, { add });
  }

  key(e) {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      if (!this.results.length) return;
      const d = e.key === "ArrowDown" ? 1 : -1;
      this.active = (this.active + d + this.results.length) % this.results.length;
      this.list.hidden = false;
      this.highlight();
    } else if (e.key === "Enter") {
      e.preventDefault();
      clearTimeout(this.timer);
      const add = e.shiftKey;
      if (this.results.length) this.pick(Math.max(0, this.active), add);
      else this.run().then(() => this.pick(0, add));
    } else if (e.key === "Escape") {
      this.input.value = "";
      this.show([]);
      this.input.blur();
    }
  }
}
