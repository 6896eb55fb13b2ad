// What the window knows about study artifacts outside any one screen: the list (cached
// briefly, so transcript cards can find theirs), the jobs writing new ones (watched through
// /api/activity until they end, with a toast when one is ready), Stop, and copying as Markdown.

import { api } from "./api.js";
import { h } from "./dom.js";
import { go } from "./router.js";
import { emit } from "./store.js";
import { toast } from "./toast.js";

export const ARTIFACT_KINDS = ["notes", "flashcards", "study_plan", "study_guide", "mind_map"];
export const KIND_NAMES = { notes: "Notes", flashcards: "Flashcards", study_plan: "Study plan",
  study_guide: "Study guide", mind_map: "Mind map" };
export const KIND_PLURALS = { notes: "Notes", flashcards: "Flashcards", study_plan: "Study plans",
  study_guide: "Study guides", mind_map: "Mind maps" };
export const KIND_ICONS = { notes: "¶", flashcards: "❏", study_plan: "☰", study_guide: "✎", mind_map: "✣" };

const KIND_PHRASES = { notes: "notes", flashcards: "flashcards", study_plan: "a study plan",
  study_guide: "a study guide", mind_map: "a mind map" };

/** "notes and flashcards", "notes, a study guide and a mind map" */
export function kindsPhrase(kinds) {
  const words = kinds.map((k) => KIND_PHRASES[k] || k);
  return words.length < 2 ? words.join("") : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

// --- the list, shared for a moment (a transcript asks once per render, not once per card) ----

let listCache = null;
let listAt = 0;

export function listArtifacts({ fresh = false } = {}) {
  if (fresh || !listCache || Date.now() - listAt > 4000) {
    listAt = Date.now();
    listCache = api.get("/api/artifacts").then((body) => body.artifacts || []).catch((error) => {
      listCache = null;
      throw error;
    });
  }
  return listCache;
}

export function forgetArtifacts() {
  listCache = null;
  emit("artifacts-changed");
}

// --- jobs writing artifacts ------------------------------------------------------------------

const started = new Map();  // job_id -> {kind, label}: the ones this window asked for
let jobs = [];  // the activity feed's artifact jobs: running ones, and ended ones started here
let timer = 0;
let polling = false;

export function artifactJobs() {
  return jobs;
}

/** Jobs just started from a Make dialog: follow them, and say where they will appear. */
export function trackJobs(list, scopeLabel) {
  for (const job of list) started.set(job.job_id, { kind: job.kind, label: scopeLabel, seen: null });
  pollJobs();
}

export function dismissJob(jobId) {
  started.delete(jobId);
  jobs = jobs.filter((j) => j.id !== jobId);
  emit("artifact-jobs", jobs);
}

export async function stopJob(jobId) {
  try {
    await api.post("/api/activity/abort", { run_id: jobId });
  } catch (error) {
    toast(error.message, { kind: "error" });
  }
  pollJobs();
}

/** Look at the activity feed now; keep looking every second while anything is writing. */
export async function pollJobs() {
  clearTimeout(timer);
  if (polling) return;
  polling = true;
  let feed = null;
  try {
    feed = await api.get("/api/activity");
  } catch {
    feed = null;
  } finally {
    polling = false;
  }
  if (feed) settle([...(feed.running || []), ...(feed.recent || [])]);
  if (jobs.some((j) => j.running) || [...started.values()].some((s) => s.seen === null)) {
    timer = setTimeout(pollJobs, 1000);
  }
}

function settle(items) {
  const next = [];
  let finished = false;
  for (const raw of items) {
    if (raw.kind !== "job" || !ARTIFACT_KINDS.includes(raw.job_kind)) continue;
    const job = view(raw);
    const mine = started.get(job.id);
    if (!job.running && !mine) continue;  // old news, unless this window asked for it
    if (mine) {
      if (mine.seen && mine.seen !== job.status && !job.running) announce(job, mine);
      if (!job.running && mine.seen === null) announce(job, mine);
      mine.seen = job.status;
      if (job.status === "done") started.delete(job.id);  // the list shows it now
    }
    if (!job.running && job.status === "done") finished = true;
    else next.push(job);
  }
  const ended = jobs.some((j) => j.running && !next.some((n) => n.id === j.id && n.running));
  jobs = next;
  if (finished || ended) forgetArtifacts();
  emit("artifact-jobs", jobs);
}

function view(raw) {
  const usage = raw.usage || {};
  const tokens = (usage.input_tokens ?? 0) + (usage.output_tokens ?? 0);
  return {
    id: raw.run_id,
    kind: raw.job_kind,
    label: raw.label || KIND_NAMES[raw.job_kind],
    status: raw.status,
    running: ["queued", "running", "delivering"].includes(raw.status),
    tokens: usage.input_tokens == null && usage.output_tokens == null ? null : tokens,
    cost: usage.cost_usd ?? null,
    error: raw.error || null,
    at: raw.started_at,
  };
}

function announce(job, mine) {
  const noun = KIND_NAMES[job.kind] || "Study material";
  if (job.status === "done") {
    const open = async () => {
      const list = await listArtifacts({ fresh: true }).catch(() => []);
      const made = list.find((a) => a.job_id === job.id && a.kind === job.kind);
      go(made ? `#/artifacts/${encodeURIComponent(made.id)}` : "#/artifacts");
    };
    toast(`${noun} ready${mine.label ? ` — ${mine.label}` : ""}.`, { action: ["Open", open] });
  } else if (job.status === "aborted") {
    toast(`${noun} stopped; nothing was kept.`);
  } else if (job.status === "error") {
    toast(`${noun} could not be written: ${job.error || "the model gave up."}`, { kind: "error" });
  }
}

// --- copying -----------------------------------------------------------------------------------

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard API here (an older web view, or no permission): select and copy instead.
    const area = h("textarea.copy-buffer", { readonly: true, "aria-hidden": "true" });
    area.value = text;
    document.body.append(area);
    area.select();
    let ok = false;
    try {
      ok = document.execCommand("copy");
    } catch {
      ok = false;
    }
    area.remove();
    return ok;
  }
}

/** Copy one artifact's Markdown (as the server writes it) and say so. */
export async function copyArtifact(id, markdown = null) {
  let text = markdown;
  try {
    if (text === null) text = (await api.get(`/api/artifacts/${encodeURIComponent(id)}`)).markdown;
  } catch (error) {
    toast(error.message, { kind: "error" });
    return false;
  }
  const ok = await copyText(text || "");
  if (ok) toast("Copied as Markdown.", { timeout: 3000 });
  else toast("Could not reach the clipboard. Select the text and copy it instead.", { kind: "error" });
  document.body.dataset.copied = ok ? "1" : "0";  // tests read it
  return ok;
}
