// The activity strip along the bottom: one quiet line ("2 jobs · extracting 3/8 · $0.04") that
// opens into a list of running and recent work — jobs, extraction runs, imports — each with
// its progress, cost and a Stop button. Polls quickly while something runs, slowly otherwise.

import { api, ApiError } from "./api.js";
import { h, money, plural, relativeTime, replace } from "./dom.js";
import { emit } from "./store.js";
import { importStep } from "./import-stages.js";

const FAST = 1000;
const SLOW = 15000;
let root = null;
let timer = 0;
let items = [];
let feed = "unknown";  // "activity" when GET /api/activity exists, else "legacy"
let open = false;
const seen = new Map();  // id -> last status (to announce what finished)

export function mountActivity(el) {
  root = el;
  render();
  connect();
}

/** Live updates from GET /api/activity/stream; polling when the stream is not there. */
function connect() {
  let failures = 0;
  const source = new EventSource("/api/activity/stream");
  source.addEventListener("activity", (event) => {
    failures = 0;
    feed = "activity";
    live = true;
    try {
      apply(normalizeFeed(JSON.parse(event.data)));
    } catch (error) {
      console.warn("bad activity event", error);
    }
  });
  source.addEventListener("error", () => {
    failures += 1;
    if (source.readyState === EventSource.CLOSED || failures > 3) {
      source.close();
      live = false;
      poll();
    }
  });
}

let live = false;

/** Something just started (an import, an extraction, a turn): look again soon and often. */
export function watchActivity() {
  if (live) return;  // the stream tells us
  clearTimeout(timer);
  timer = setTimeout(poll, 200);
}

function apply(next) {
  items = next;
  announce();
  render();
  emit("activity", items);  // Home shows a running import's progress over the graph
}

/** The work known now (normalised items), e.g. for a view mounted while an import runs. */
export function activityItems() {
  return items;
}

export async function followExtraction(runId) {
  for (;;) {
    let run;
    try {
      run = await api.get(`/api/extraction/runs/${encodeURIComponent(runId)}`);
    } catch {
      return null;
    }
    if (run.status !== "running") return run;
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function fetchItems() {
  if (feed !== "legacy") {
    try {
      const data = await api.get("/api/activity");
      feed = "activity";
      return normalizeFeed(data);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 404) throw error;
      feed = "legacy";
    }
  }
  const [runs, imports] = await Promise.all([
    api.get("/api/extraction/runs").catch(() => []),
    api.get("/api/graph/imports").catch(() => []),
  ]);
  return [...runs, ...imports].map(normalize);
}

function normalizeFeed(data) {
  if (Array.isArray(data)) return data.map(normalize);
  return [...(data?.running || []), ...(data?.recent || [])].map(normalize);
}

function normalize(raw) {
  const kind = raw.kind || (raw.job_id ? "job" : "run");
  const id = raw.run_id || raw.job_id || raw.id;
  const progress = raw.progress || {};
  const usage = raw.usage || {};
  return {
    id, kind, raw,
    status: raw.status,
    running: ["running", "queued", "delivering"].includes(raw.status),
    chat_id: raw.chat_id || (raw.kind === "extraction" ? raw.source_id : null),
    label: labelOf(kind, raw),
    done: progress.done ?? null,
    total: progress.total ?? null,
    stage: raw.stage || null,
    cost: usage.cost_usd ?? raw.cost_usd ?? null,
    at: raw.started_at || raw.created_at || null,
    error: raw.error || null,
  };
}

// An extraction run's stages (an import's are worded by import-stages.js, as on Home).
const STAGE_NAMES = { planning: "planning", extracting: "extracting", auditing: "checking",
  merging: "merging" };

const JOB_NOUNS = { research: "Research", demo: "Demo", visual: "Diagram", notes: "Notes",
  flashcards: "Flashcards", study_plan: "Study plan" };

function labelOf(kind, raw) {
  if (kind === "import") return `Importing ${String(raw.path || "").split("/").filter(Boolean).pop() || "notes"}`;
  if (kind === "extraction") return "Adding a session to the graph";
  // The server names it in full ("Making flashcards: Obsidian internal links").
  return raw.label || raw.title || JOB_NOUNS[raw.job_kind] || "Job";
}

async function poll() {
  clearTimeout(timer);
  let next = [];
  try {
    next = await fetchItems();
  } catch {
    next = [];
  }
  apply(next);
  if (!live) timer = setTimeout(poll, items.some((i) => i.running) ? FAST : SLOW);
}

function announce() {
  for (const item of items) {
    const before = seen.get(item.id);
    seen.set(item.id, item.status);
    if (before && before !== item.status) {
      emit("activity-changed", item);  // e.g. a job delivering: its session wakes up
      if (!item.running && (item.kind === "import" || item.kind === "extraction") && item.status === "done") {
        emit("graph-changed");
      }
    }
  }
}

async function abort(item) {
  try {
    if (feed === "activity") await api.post("/api/activity/abort", { run_id: item.id });
    else if (item.kind === "import") await api.post(`/api/graph/import/${item.id}/abort`);
    else await api.post(`/api/extraction/runs/${item.id}/abort`);
  } catch (error) {
    console.warn("abort failed", error);
  }
  watchActivity();
}

function summary() {
  const running = items.filter((i) => i.running);
  const parts = [];
  const jobs = running.filter((i) => i.kind === "job");
  if (jobs.length) parts.push(plural(jobs.length, "job"));
  for (const i of running.filter((x) => x.kind === "extraction")) {
    parts.push(`extracting${i.total ? ` ${i.done}/${i.total}` : "…"}`);
  }
  for (const i of running.filter((x) => x.kind === "import")) {
    parts.push(`importing: ${importStep(i.stage, i.done, i.total)}`);  // Home's words
  }
  // The local search encoder's one-time set-up at the first start (encoder_setup.py).
  if (running.some((x) => x.kind === "setup")) parts.push("preparing local search (one time)");
  const costs = items.map((i) => i.cost).filter((c) => typeof c === "number");
  const cost = costs.length ? money(costs.reduce((a, b) => a + b, 0)) : null;
  if (cost) parts.push(`${cost} model cost of this work`);  // the same words as a session's dock
  return { text: parts.length ? parts.join(" · ") : "Nothing running", busy: running.length > 0 };
}

function render() {
  if (!root) return;
  const { text, busy } = summary();
  const toggle = h("button.activity-toggle", {
    type: "button", "aria-expanded": open ? "true" : "false", "aria-controls": "activity-panel",
    onclick: () => { open = !open; render(); },
  }, busy ? h("span.spinner", { "aria-hidden": "true" }) : h("span.dot", { "aria-hidden": "true" }),
  h("span.activity-text", text));
  const panel = open ? h("div.activity-panel", { id: "activity-panel" },
    items.length ? h("ul.activity-list", items.slice(0, 30).map(row))
      : h("p.muted.small", "No jobs, imports or extraction runs yet.")) : null;
  root.dataset.busy = busy ? "1" : "";
  replace(root, toggle, panel);
}

/** What a running item is doing and how far along, or how it ended. */
function stepOf(item) {
  if (!item.stage || !item.running) return [item.status];
  if (item.kind === "import") return [importStep(item.stage, item.done, item.total)];
  return [STAGE_NAMES[item.stage] || item.stage, item.total ? `${item.done}/${item.total}` : null];
}

function row(item) {
  const pct = item.total ? Math.round((100 * item.done) / item.total) : null;
  const bar = h("div.progress.thin", { role: "progressbar", "aria-label": item.label,
    "aria-valuenow": pct ?? undefined, "aria-valuemin": "0", "aria-valuemax": "100" }, h("div.progress-fill"));
  if (pct !== null) bar.firstChild.style.width = `${pct}%`;
  return h("li.activity-item", { class: `status-${item.status}` },
    h("div.activity-line",
      h("span.activity-label", item.label),
      // Each part kept whole ("1 second ago"): a narrow dock breaks the line between parts only.
      h("span.muted.small", [...stepOf(item), money(item.cost), item.at ? relativeTime(item.at) : null]
        .filter(Boolean).map((part, i) => [i ? " · " : "", h("span.nowrap", part)])),
      item.running ? h("button.small", { type: "button", onclick: () => abort(item), "aria-label": `Stop: ${item.label}` }, "Stop") : null),
    item.running && pct !== null ? bar : null,
    item.error && !item.running ? h("p.small.form-error", item.error) : null);
}
