// The two starts, as modal dialogs: a new session with a topic, and importing notes with live
// progress (stage, notes done / total, the note being read) and a Stop button.

import { api } from "./api.js";
import { dialog } from "./modal.js";
import { h, plural, replace } from "./dom.js";
import { go } from "./router.js";
import { emit, modelsReady, refreshChats } from "./store.js";
import { forgetSources } from "./nodepanel.js";
import { watchActivity } from "./activity.js";
import { importStep } from "./import-stages.js";

export function openNewSession(topic = "") {
  // No usable key for the prober or teacher: adding one comes first (Settings says how).
  if (!modelsReady()) return go("#/settings?first=1");
  const input = h("input", { id: "new-topic", name: "topic", type: "text", maxlength: "200",
    placeholder: "e.g. graph theory, the Krebs cycle, Bayes' rule", value: topic, required: true,
    autocomplete: "off" });
  const error = h("p.form-error", { role: "alert", hidden: true });
  const start = h("button.primary", { type: "submit" }, "Start session");
  const form = h("form.dialog-body", { method: "dialog" },
    h("h2", "New session"),
    h("label", { for: "new-topic" }, "What do you want to learn?"),
    input,
    h("p.muted.small", "The session starts with a few quick questions to find your level, then the teacher proposes a plan for you to approve."),
    error,
    h("div.dialog-actions",
      h("button", { type: "button", onclick: () => el.close() }, "Cancel"), start),
  );
  const el = dialog("New session", form);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    start.disabled = true;
    try {
      const { id } = await api.post("/api/chats", { topic: text });
      await refreshChats();
      el.close();
      go(`#/session/${id}?start=1`);
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
      start.disabled = false;
    }
  });
  input.focus();
}

/** The path field, with "Choose folder…" in the desktop window (pywebview's folder dialog
 *  through the window's js_api bridge); a browser has no such bridge and keeps the field. */
function folderField(input) {
  const bridge = window.pywebview?.api;
  if (!bridge?.pick_folder) return input;
  const pick = h("button", { type: "button", onclick: async () => {
    const path = await bridge.pick_folder();
    if (path) input.value = path;
    input.focus();
  } }, "Choose folder…");
  return h("div.path-row", input, pick);
}

export function openImport() {
  const input = h("input", { id: "import-path", name: "path", type: "text", required: true,
    placeholder: "/home/you/Notes or ~/vault/Topic.md", autocomplete: "off", spellcheck: "false" });
  const error = h("p.form-error", { role: "alert", hidden: true });
  const start = h("button.primary", { type: "submit" }, "Import");
  const body = h("div.import-progress", { hidden: true });
  const actions = h("div.dialog-actions",
    h("button", { type: "button", onclick: () => el.close() }, "Close"), start);
  const form = h("form.dialog-body", { method: "dialog" },
    h("h2", "Import your notes"),
    h("label", { for: "import-path" }, "A folder of notes (an Obsidian vault works), a Markdown file, or an Anki deck (.apkg)"),
    h("p.muted.small", "Lectures (.vtt, .srt captions; audio or video beside them), PDFs and text files in the folder come along: they are searchable and citable in Ask."),
    folderField(input),
    h("p.muted.small", "No key needed: without a model, your notes are mapped from their titles, headings and links. Importing again only reads what changed."),
    error, body, actions,
  );
  const el = dialog("Import notes", form);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const path = input.value.trim();
    if (!path) return;
    start.disabled = true;
    error.hidden = true;
    try {
      const run = await api.post("/api/graph/import", { path });
      watchActivity();
      body.hidden = false;
      start.hidden = true;
      await followImport(run.run_id, body, actions, () => el.close());
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
    } finally {
      start.disabled = false;
    }
  });
  input.focus();
}

async function followImport(runId, body, actions, close) {
  const stage = h("p.progress-stage", "Starting…");
  const bar = h("div.progress-fill");
  const track = h("div.progress", { role: "progressbar", "aria-label": "Import progress",
    "aria-valuemin": "0", "aria-valuemax": "100" }, bar);
  const detail = h("p.muted.small.progress-detail", "");
  const stop = h("button", { type: "button" }, "Stop import");
  replace(body, stage, track, detail);
  actions.append(stop);
  stop.addEventListener("click", () => api.post(`/api/graph/import/${runId}/abort`).catch(() => {}));
  for (;;) {
    let run;
    try {
      run = await api.get(`/api/graph/import/${runId}`);
    } catch (err) {
      detail.textContent = err.message;
      return;
    }
    const { done, total, path } = run.progress;
    const pct = total ? Math.round((100 * done) / total) : (run.status === "done" ? 100 : 0);
    const step = run.stage === "done" ? "done" : importStep(run.stage, done, total);
    stage.textContent = step.charAt(0).toUpperCase() + step.slice(1);
    bar.style.width = `${pct}%`;
    track.setAttribute("aria-valuenow", String(pct));
    detail.textContent = path || "";
    if (run.status !== "running") {
      stop.remove();
      forgetSources();
      emit("graph-changed");
      replace(body, ...summary(run));
      if (run.status === "done") {
        actions.append(h("button.primary", { type: "button", onclick: () => {
          close();
          go("#/");
        } }, "Show in graph"));
      }
      return;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
}

const MATERIAL_NOUNS = [["transcript", "lecture"], ["pdf", "PDF"], ["text", "text file"]];

/** "2 lectures and 1 PDF ready to ask about": the course material an import indexed. */
function materialLine(m) {
  const kinds = (m && m.kinds) || {};
  const parts = MATERIAL_NOUNS.filter(([k]) => kinds[k]).map(([k, noun]) => plural(kinds[k], noun));
  if (!parts.length) return null;
  const list = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
  return `${list} ready to ask about and quiz on`;
}

function summary(run) {
  if (run.status === "error" || run.status === "aborted") {
    return [h("p.form-error", { role: "alert" }, run.error || "The import stopped.")];
  }
  const r = run.report || {};
  const material = materialLine(r.material);
  const lines = [];
  const m = r.material || {};
  const fresh = (r.imported || 0) + (m.imported || 0) + (r.deleted || []).length + (m.removed || 0);
  // The same folder again with nothing changed: say so, not "0 notes imported, 0 topics added"
  // (and nothing about a model that had nothing to read).
  const nothingNew = !fresh && !r.anki && Boolean(r.unchanged || m.unchanged);
  if (nothingNew) {
    lines.push(`Nothing new since the last import: ${plural(Math.max(r.unchanged || 0, m.unchanged || 0), "file")} unchanged`);
  } else if (r.imported || r.unchanged || !material) {
    // A folder of lectures or PDFs imports no notes: say what it did import instead of "0 notes".
    lines.push(`${plural(r.imported || 0, "note")} imported${r.unchanged ? `, ${r.unchanged} unchanged` : ""}`);
    lines.push(`${plural(r.propositions || 0, "topic")} added to your map, ${plural(r.edges || 0, "link")} between them`);
  }
  if (material) lines.push(material);
  if (r.anki) lines.push(`${plural(r.anki.reviews, "Anki review")} imported, ${plural(r.anki.cards_queued, "card")} joined the review queue${r.anki.cards_suspended ? ` (${r.anki.cards_suspended} out of review: suspended in Anki)` : ""}`);
  const skipped = r.skipped || [];
  return [
    h("p.progress-stage.ok", "Imported"),
    h("ul.import-summary", lines.map((l) => h("li", l)),
      skipped.length ? h("li", `${plural(skipped.length, "file")} skipped: `,
        skipped.slice(0, 3).map((s) => `${s.path} (${s.reason})`).join("; ")) : null,
      r.extractor_note && !nothingNew ? h("li.muted", r.extractor_note) : null),
  ];
}
