// Home during an import: a small strip over the graph ("Importing ‘vault’", "adding notes · 83 of 173",
// a thin bar and Stop) that follows the activity feed, and a nudge to read the map again each
// time the import moves on, so the graph grows while the notes come in.

import { api } from "../api.js";
import { h, replace } from "../dom.js";
import { importStep } from "../import-stages.js";

/** The running import among activity items, or null. */
export function runningImport(items) {
  return (items || []).find((i) => i.kind === "import" && i.running) || null;
}

function importName(item) {
  return String(item.raw?.path || "").split(/[\\/]/).filter(Boolean).pop() || "notes";
}

function stepOf(item) {
  return importStep(item.stage, item.done, item.total);
}

export function importText(item) {
  return `Importing ‘${importName(item)}’ — ${stepOf(item)}`;
}

export class ImportStrip {
  constructor(parent) {
    this.title = h("span.import-strip-title", "");
    this.step = h("span.import-strip-step", "");
    this.fill = h("div.progress-fill");
    this.bar = h("div.progress.thin", { role: "progressbar", "aria-label": "Import progress",
      "aria-valuemin": "0", "aria-valuemax": "100" }, this.fill);
    this.stop = h("button.small.link-button", { type: "button", onclick: () => this.abort() }, "Stop");
    this.root = h("div.import-strip.graph-float", { role: "status", "aria-live": "polite", hidden: true },
      h("div.import-strip-line", h("span.spinner", { "aria-hidden": "true" }), this.title, this.stop),
      this.step, this.bar);
    this.item = null;
    parent.append(this.root);
  }

  /** Show the import's progress (or hide the strip when `item` is null); true when it moved. */
  show(item) {
    const before = this.item;
    this.item = item;
    this.root.hidden = !item;
    if (!item) return before !== null;
    this.title.textContent = `Importing ‘${importName(item)}’`;
    this.step.textContent = stepOf(item);
    this.root.setAttribute("aria-label", importText(item));
    this.stop.setAttribute("aria-label", `Stop importing ‘${importName(item)}’`);
    const pct = item.total ? Math.round((100 * item.done) / item.total) : null;
    this.fill.style.width = pct === null ? "0%" : `${pct}%`;
    if (pct === null) this.bar.removeAttribute("aria-valuenow");
    else this.bar.setAttribute("aria-valuenow", String(pct));
    return !before || before.id !== item.id || before.stage !== item.stage || before.done !== item.done;
  }

  async abort() {
    if (!this.item) return;
    try {
      await api.post("/api/activity/abort", { run_id: this.item.id });
    } catch (error) {
      replace(this.step, `Could not stop the import: ${error.message}`);
    }
  }

  remove() {
    this.root.remove();
  }
}
