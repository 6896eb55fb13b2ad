// "Make study material…": a small dialog wherever a scope is on screen (a topic or its cluster,
// a source, a session, the whole graph). The learner ticks kinds; the server starts one
// background job per kind; a toast says where they will appear and the Artifacts view shows
// them being written, with Stop.

import { api, ApiError } from "./api.js";
import { h, plural } from "./dom.js";
import { dialog } from "./modal.js";
import { go } from "./router.js";
import { watchActivity } from "./activity.js";
import { toast } from "./toast.js";
import { ARTIFACT_KINDS, KIND_NAMES, kindsPhrase, trackJobs } from "./artifacts-jobs.js";

const HINTS = {
  notes: "A readable summary in Markdown",
  flashcards: "Question and answer cards; those tied to a topic join your reviews",
  study_plan: "Steps in the order to study them",
  study_guide: "The key ideas and an FAQ, each with its quote",
  mind_map: "An outline of how the ideas branch",
};
const MIN_CARDS = 3;
const MAX_CARDS = 30;

/**
 * The button that opens the dialog. `scopes` is one scope or several to choose from, each
 * `{type, id, node_ids?, label}` (the label is what the learner reads: "Binary heaps").
 */
export function makeButton(scopes, { small = true, text = "Make study material…" } = {}) {
  const list = Array.isArray(scopes) ? scopes : [scopes];
  return h(small ? "button.small.make-button" : "button.make-button", {
    type: "button", onclick: () => openMakeDialog(list),
    title: "Make notes, flashcards, a study plan, a study guide or a mind map from this",
  }, text);
}

export function openMakeDialog(scopes) {
  const list = Array.isArray(scopes) ? scopes : [scopes];
  const error = h("p.form-error", { role: "alert", hidden: true });
  const count = h("input.card-count", { type: "number", id: "make-count", name: "count", min: String(MIN_CARDS),
    max: String(MAX_CARDS), value: "10", inputmode: "numeric" });
  const countRow = h("div.count-row", h("label", { for: "make-count" }, "How many cards"), count);
  const boxes = ARTIFACT_KINDS.map((kind) => h("input", { type: "checkbox", name: "kinds", value: kind,
    id: `make-${kind}`, checked: kind === "notes" || kind === "flashcards" }));
  const kindRows = ARTIFACT_KINDS.map((kind, i) => h("li.kind-choice",
    boxes[i],
    h("label", { for: `make-${kind}` }, h("span.kind-choice-name", KIND_NAMES[kind]),
      h("span.kind-choice-hint", HINTS[kind])),
    kind === "flashcards" ? countRow : null));
  const scopeChoice = list.length > 1
    ? h("fieldset.scope-choice", h("legend", "From"), list.map((s, i) => h("div.scope-option",
      h("input", { type: "radio", name: "scope", id: `make-scope-${i}`, value: String(i), checked: i === 0 }),
      h("label", { for: `make-scope-${i}` }, scopeText(s)))))
    : h("p.make-scope", h("span.muted", "From "), h("strong", scopeText(list[0])));
  const brief = h("textarea", { id: "make-brief", name: "brief", rows: 2, maxlength: "2000",
    placeholder: "e.g. focus on the proofs; I have an exam on Friday" });
  const submit = h("button.primary", { type: "submit" }, "Make");
  const form = h("form.dialog-body.make-dialog", { method: "dialog" },
    h("h2", "Make study material"),
    scopeChoice,
    h("fieldset.kind-choices", h("legend", "What to make"), h("ul", kindRows)),
    h("label", { for: "make-brief" }, "Anything to focus on? (optional)"),
    brief,
    h("p.muted.small", "Each one is written in the background from what your graph and sources say, and every card and claim quotes where it comes from. You can keep working meanwhile."),
    error,
    h("div.dialog-actions", h("button", { type: "button", onclick: () => el.close() }, "Cancel"), submit));
  const el = dialog("Make study material", form);
  el.classList.add("make-modal");

  const chosen = () => boxes.filter((b) => b.checked).map((b) => b.value);
  const sync = () => {
    const kinds = chosen();
    countRow.hidden = !kinds.includes("flashcards");
    submit.disabled = !kinds.length;
    submit.textContent = kinds.length > 1 ? `Make ${kinds.length}` : "Make";
  };
  for (const b of boxes) b.addEventListener("change", sync);
  sync();

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const kinds = chosen();
    if (!kinds.length) return;
    const picked = list.length > 1 ? list[Number(form.elements.scope.value) || 0] : list[0];
    const body = { kinds, scope: wireScope(picked) };
    if (brief.value.trim()) body.brief = brief.value.trim();
    if (kinds.includes("flashcards")) {
      const n = Math.round(Number(count.value) || 10);
      body.count = Math.min(MAX_CARDS, Math.max(MIN_CARDS, n));
    }
    submit.disabled = true;
    error.hidden = true;
    try {
      const answer = await api.post("/api/artifacts", body);
      const jobs = answer.jobs || [];
      el.close();
      trackJobs(jobs, picked.label || "");
      watchActivity();
      toast(`Writing ${kindsPhrase(kinds)} from ${scopeText(picked)}…`,
        { action: ["See progress", () => go("#/artifacts")], timeout: 8000 });
    } catch (err) {
      showError(error, err, () => el.close());
      submit.disabled = false;
    }
  });
  boxes[0].focus();
  return el;
}

/** What the server needs; the label is the server's to fill. */
function wireScope(scope) {
  const out = { type: scope.type, id: scope.id ?? null };
  if (scope.type === "selection") out.node_ids = scope.node_ids || [];
  return out;
}

export function scopeText(scope) {
  const label = scope.label || "";
  switch (scope.type) {
    case "graph": return "your whole graph";
    case "topic": return label ? `the topic “${label}”` : "this topic";
    case "cluster": return label ? `the group “${label}”` : "this group of topics";  // a cluster, to the learner
    case "source": return label ? `the source “${label}”` : "this source";
    case "session": return label ? `the session “${label}”` : "this session";
    case "selection": return plural((scope.node_ids || []).length, "selected idea");
    default: return label || scope.type;
  }
}

function showError(el, err, close) {
  el.replaceChildren(err.message || "It could not be started.");
  // No model: the one action that fixes it.
  if (err instanceof ApiError && err.status === 409) {
    el.append(" ", h("button.link-button", { type: "button", onclick: () => { close(); go("#/settings"); } }, "Open settings"));
  }
  el.hidden = false;
}
