// Artifacts (#/artifacts, #/artifacts/<id>): every note, flashcard deck, study plan, study guide
// and mind map the learner made, newest first, filtered by kind; the ones being written at the
// top with Stop; one opened full width to read, copy as Markdown, print or delete.

import { api } from "./api.js";
import { formatDate, h, money, plural, relativeTime, replace } from "./dom.js";
import { dialog } from "./modal.js";
import { go } from "./router.js";
import { on } from "./store.js";
import { toast } from "./toast.js";
import { renderArtifactBody } from "./artifacts-render.js";
import { makeButton, openMakeDialog, scopeText } from "./artifacts-make.js";
import {
  artifactJobs, copyArtifact, dismissJob, forgetArtifacts, KIND_ICONS, KIND_NAMES, KIND_PLURALS,
  listArtifacts, pollJobs, stopJob,
} from "./artifacts-jobs.js";

const WHOLE_GRAPH = { type: "graph", id: null, label: "" };
const CHECKED = ["flashcards", "study_guide"];  // kinds whose unbacked items are dropped

export async function mountArtifacts({ main, dock }, params) {
  document.body.dataset.view = "artifacts";
  document.body.dataset.artifacts = "loading";
  const scroll = h("div.artifacts-scroll");
  replace(main, scroll);
  const offs = [];
  let disposed = false;
  // Printing opens every folded part (evidence, the FAQ): paper cannot unfold them.
  const unfold = () => { for (const d of scroll.querySelectorAll("details")) d.open = true; };
  window.addEventListener("beforeprint", unfold);
  const view = params.id ? openOne(scroll, dock, params.id, () => disposed) : listAll(scroll, dock, offs, () => disposed);
  await view;
  return {
    unmount() {
      disposed = true;
      window.removeEventListener("beforeprint", unfold);
      for (const off of offs) off();
      delete document.body.dataset.artifacts;
      document.body.dataset.view = "";
      document.title = "Studyhall";
    },
  };
}

// --- the list ----------------------------------------------------------------------------------

async function listAll(scroll, dock, offs, gone) {
  let filter = "all";
  let items = [];
  const writing = h("ul.writing-list", { "aria-label": "Being written", "aria-live": "polite" });
  const filters = h("div.kind-filters", { role: "group", "aria-label": "Show only" });
  const body = h("div.artifacts-body", { "aria-busy": "true" }, h("p.muted", "Loading your study material…"));
  const count = h("p.muted.small.artifacts-count", "");
  const make = makeButton(WHOLE_GRAPH, { small: false });
  replace(scroll, h("section.artifacts-page", { "aria-labelledby": "artifacts-title" },
    h("header.artifacts-head",
      h("div", h("h1", { id: "artifacts-title" }, "Artifacts"), count),
      make),
    writing, filters, body));
  renderListDock(dock);

  let loaded = false;
  const drawWriting = () => {
    replace(writing, artifactJobs().map(writingRow));
    if (loaded && !items.length) draw();  // the empty state gives way while one is written
  };
  const draw = () => {
    const kinds = [...new Set(items.map((a) => a.kind))];
    if (filter !== "all" && !kinds.includes(filter)) filter = "all";
    replace(filters, kinds.length > 1 ? [chip("all", `All ${items.length}`), ...kinds.map((k) =>
      chip(k, `${KIND_PLURALS[k] || k} ${items.filter((a) => a.kind === k).length}`))] : []);
    count.textContent = items.length ? `${plural(items.length, "item")}, newest first` : "";
    make.hidden = !items.length;  // the empty state offers it in its own words
    const shown = filter === "all" ? items : items.filter((a) => a.kind === filter);
    body.removeAttribute("aria-busy");
    const writingNow = artifactJobs().some((j) => j.running);
    replace(body, items.length ? h("ul.artifact-list", shown.map(listRow))
      : writingNow ? h("p.muted.artifacts-first", "Your first one appears here as soon as it is written.") : emptyState());
    document.body.dataset.artifacts = items.length ? "ready" : "empty";
  };
  const chip = (kind, text) => h("button.kind-chip", { type: "button", "aria-pressed": String(filter === kind),
    dataset: { kind }, onclick: () => { filter = kind; draw(); } }, text);

  async function load() {
    try {
      items = sortNewest(await listArtifacts({ fresh: true }));
    } catch (error) {
      if (gone()) return;
      document.body.dataset.artifacts = "error";
      body.removeAttribute("aria-busy");
      replace(body, h("div.inline-error", { role: "alert" }, h("p", `Could not list your study material: ${error.message}`),
        h("button", { type: "button", onclick: load }, "Try again")));
      return;
    }
    loaded = true;
    if (!gone()) draw();
  }

  offs.push(on("artifact-jobs", drawWriting), on("artifacts-changed", () => { if (!gone()) load(); }));
  drawWriting();
  pollJobs();
  await load();
}

function sortNewest(list) {
  return list.slice().sort((a, b) => String(b.created_at).localeCompare(String(a.created_at)));
}

function writingRow(job) {
  if (!job.running) {
    const stopped = job.status === "aborted";
    return h("li.writing-row.writing-ended", { dataset: { jobId: job.id } },
      h("span.kind-icon", { "aria-hidden": "true" }, stopped ? "■" : "!"),
      h("div.writing-main",
        h("p.writing-label", `${KIND_NAMES[job.kind] || "Study material"} ${stopped ? "stopped" : "not written"}`),
        h("p.small.muted", stopped ? "Nothing was kept." : job.error || "The model could not write it.")),
      h("button.small", { type: "button", onclick: () => dismissJob(job.id) }, "Dismiss"));
  }
  const facts = [job.tokens !== null ? `${job.tokens.toLocaleString()} tokens` : null, money(job.cost),
    job.at ? `started ${relativeTime(job.at)}` : null].filter(Boolean).join(" · ");
  return h("li.writing-row", { dataset: { jobId: job.id } },
    h("span.kind-icon", { "aria-hidden": "true" }, h("span.spinner")),
    h("div.writing-main",
      h("p.writing-label", job.label || `Writing ${(KIND_NAMES[job.kind] || "").toLowerCase()}`, "…"),
      h("p.small.muted", facts || "Starting…")),
    h("button.small.stop-job", { type: "button", "aria-label": `Stop: ${job.label || KIND_NAMES[job.kind]}`,
      onclick: (e) => { e.currentTarget.disabled = true; stopJob(job.id); } }, "Stop"));
}

function listRow(a) {
  const href = `#/artifacts/${encodeURIComponent(a.id)}`;
  const counts = a.counts || {};
  return h("li.artifact-row", { dataset: { id: a.id, kind: a.kind } },
    h("span.kind-icon", { "aria-hidden": "true", title: KIND_NAMES[a.kind] }, KIND_ICONS[a.kind] || "•"),
    h("div.artifact-row-main",
      h("a.artifact-title", { href }, a.title || KIND_NAMES[a.kind] || "Untitled"),
      h("p.artifact-facts",
        h("span.artifact-kind", KIND_NAMES[a.kind] || a.kind),
        h("span.artifact-scope", scopeLine(a.scope)),
        counts.cards != null ? h("span", plural(counts.cards, "card")) : null,
        counts.dropped && CHECKED.includes(a.kind) ? h("span.artifact-dropped",
          `${plural(counts.dropped, a.kind === "flashcards" ? "unbacked card" : "unbacked claim")} dropped`) : null,
        h("time.artifact-when", { datetime: a.created_at, title: formatDate(a.created_at) }, relativeTime(a.created_at)))));
}

function scopeLine(scope) {
  if (!scope) return "";
  const text = scopeText(scope);
  return `From ${text}`;
}

function emptyState() {
  return h("div.artifacts-empty",
    h("p.artifacts-empty-mark", { "aria-hidden": "true" }, "✎"),
    h("h2", "Nothing made yet"),
    h("p", "Notes, flashcards, study plans, study guides and mind maps are written from what you study. ",
      "Select a topic on Home, open a source or a session, and choose ", h("strong", "Make study material…"),
      " — or make some from your whole graph."),
    h("button.primary", { type: "button", onclick: () => openMakeDialog([WHOLE_GRAPH]) }, "Make from my whole graph…"));
}

function renderListDock(dock) {
  replace(dock, h("div.dock-section.artifacts-help",
    h("h2.dock-title", "Study material"),
    h("p.small", "Everything here is written from your own graph and sources, and each card or claim quotes the passage it rests on. A card whose answer the quote does not back is dropped, and counted."),
    h("p.small", "Flashcards tied to a topic join your ", h("a", { href: "#/review" }, "Review"), " queue; grading one counts as evidence on that topic."),
    h("p.muted.small", "Open one to read it, copy it as Markdown (for Obsidian or anywhere else) or print it.")));
}

// --- one artifact ------------------------------------------------------------------------------

async function openOne(scroll, dock, id, gone) {
  replace(scroll, h("article.artifact-page", h("p.muted", "Opening…")));
  replace(dock, h("div.dock-section"));
  let a;
  try {
    a = await api.get(`/api/artifacts/${encodeURIComponent(id)}`);
  } catch (error) {
    if (gone()) return;
    document.body.dataset.artifacts = "error";
    replace(scroll, h("article.artifact-page", backLink(),
      h("div.inline-error", { role: "alert" }, h("p", error.status === 404
        ? "This study material is not here any more: it was deleted, or the link is old." : error.message),
      h("a", { href: "#/artifacts" }, "See all your study material"))));
    return;
  }
  if (gone()) return;
  document.title = `${a.title || KIND_NAMES[a.kind]} · Studyhall`;
  const actions = h("div.artifact-actions", { role: "group", "aria-label": "Actions" },
    h("button.copy-markdown", { type: "button", onclick: () => copyArtifact(a.id, a.markdown ?? null) }, "Copy as Markdown"),
    h("button.print-artifact", { type: "button", onclick: () => window.print() }, "Print"),
    h("button.quiet-danger.delete-artifact", { type: "button", onclick: () => confirmDelete(a) }, "Delete"));
  replace(scroll, h("article.artifact-page", { dataset: { kind: a.kind, id: a.id } },
    backLink(),
    h("header.artifact-head",
      h("p.card-kicker", KIND_NAMES[a.kind] || a.kind),
      h("h1.artifact-heading", a.title || KIND_NAMES[a.kind]),
      h("p.muted.small.artifact-meta", scopeLine(a.scope), " · ",
        h("time", { datetime: a.created_at }, formatDate(a.created_at))),
      actions),
    renderArtifactBody(a.kind, withCounts(a))));
  renderOneDock(dock, a);
  document.body.dataset.artifacts = "open";
}

/** The check's counts ride on the item; the renderer reads them with the content. */
function withCounts(a) {
  const content = { ...(a.content || {}) };
  if (content.dropped == null && a.counts?.dropped != null) content.dropped = a.counts.dropped;
  return content;
}

function backLink() {
  return h("a.artifact-back", { href: "#/artifacts" }, "← Artifacts");
}

function scopeHref(scope) {
  if (!scope?.id) return scope?.type === "graph" ? "#/" : null;
  const id = encodeURIComponent(scope.id);
  return { source: `#/sources/${id}`, session: `#/session/${id}`, topic: `#/?node=${id}` }[scope.type] || null;
}

function renderOneDock(dock, a) {
  const counts = a.counts || {};
  const cards = a.kind === "flashcards" ? (a.content?.cards || []) : [];
  const linked = cards.filter((c) => c.node_id).length;
  const href = scopeHref(a.scope);
  const scope = a.scope ? scopeText(a.scope) : "";
  replace(dock, h("div.dock-section.artifact-about",
    h("h2.dock-title", "About this"),
    h("dl.artifact-dl",
      h("dt", "Made from"), h("dd", href ? h("a", { href }, scope) : scope),
      h("dt", "Made"), h("dd", formatDate(a.created_at)),
      a.chat_id ? [h("dt", "In"), h("dd", h("a", { href: `#/session/${encodeURIComponent(a.chat_id)}` }, "its session"))] : null,
      a.kind === "flashcards" ? [h("dt", "Cards"), h("dd", String(counts.cards ?? cards.length))] : null,
      a.kind === "flashcards" ? [h("dt", "In review"), h("dd.in-review", linked
        ? `${plural(linked, "card")} tied to a topic` : "none (no card is tied to a topic)")] : null,
      counts.dropped && CHECKED.includes(a.kind) ? [h("dt", "Dropped"),
        h("dd", plural(counts.dropped, a.kind === "flashcards" ? "unbacked card" : "unbacked claim"))] : null),
    a.scope ? h("p", makeButton({ ...a.scope }, { text: "Make more from this…" })) : null));
}

function confirmDelete(a) {
  const cards = a.kind === "flashcards";
  const yes = h("button.danger", { type: "submit" }, "Delete");
  const form = h("form.dialog-body", { method: "dialog" },
    h("h2", `Delete “${a.title || KIND_NAMES[a.kind]}”?`),
    h("p", cards ? "Its cards leave your review queue. What you learned stays in your graph." : "What you learned stays in your graph."),
    h("div.dialog-actions", h("button", { type: "button", onclick: () => el.close() }, "Cancel"), yes));
  const el = dialog("Delete study material", form);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    yes.disabled = true;
    try {
      await api.del(`/api/artifacts/${encodeURIComponent(a.id)}`);
    } catch (error) {
      yes.disabled = false;
      toast(error.message, { kind: "error" });
      return;
    }
    el.close();
    forgetArtifacts();
    toast(`Deleted “${a.title || KIND_NAMES[a.kind]}”.`);
    go("#/artifacts");
  });
  yes.focus();
}
