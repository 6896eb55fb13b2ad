// Artifacts the teacher's helpers deliver (research, demo, diagram, notes, flashcards, study
// plan) as cards in the transcript. A demo runs in a sandboxed frame served with its own CSP
// (scripts yes, same-origin and network no); a diagram is an <img> of the SVG, which is inert.
// A study artifact the Artifacts view lists too gets "Copy as Markdown" and "Open in Artifacts".

import { h } from "./dom.js";
import { renderMarkdown } from "./markdown.js";
import { ARTIFACT_KINDS, copyArtifact, listArtifacts } from "./artifacts-jobs.js";

const NOUNS = { research: "Research", demo: "Demo", visual: "Diagram", notes: "Notes",
  flashcards: "Flashcards", study_plan: "Study plan", study_guide: "Study guide", mind_map: "Mind map" };

const DOING = { research: "Researching", demo: "Building a demo", visual: "Drawing a diagram",
  notes: "Writing notes", flashcards: "Making flashcards", study_plan: "Planning your study",
  study_guide: "Writing a study guide", mind_map: "Drawing a mind map" };

export function jobChip(job, delivered = false) {
  // The title reads "Flashcards: Obsidian internal links"; the chip says what is happening to it.
  const title = job.title || "";
  const subject = title.includes(": ") ? title.slice(title.indexOf(": ") + 2) : title;
  const noun = NOUNS[job.kind] || job.kind;
  const line = (head) => (subject ? `${head}: ${subject}` : head);
  if (delivered) {
    return h("p.job-chip.done", { dataset: { jobId: job.job_id } }, `✓ ${line(noun)} — ready below`);
  }
  return h("p.job-chip", { dataset: { jobId: job.job_id } },
    h("span.spinner", { "aria-hidden": "true" }), ` ${line(DOING[job.kind] || `Preparing ${noun.toLowerCase()}`)}`);
}

export function artifactCard(a) {
  const card = h("section.card.artifact", { dataset: { jobId: a.job_id, kind: a.kind } },
    h("p.card-kicker", NOUNS[a.kind] || a.kind));
  if (a.status === "error" || !a.result) {
    card.classList.add("artifact-failed");
    card.append(h("h3", a.title || ""), h("p.small", a.error || "It could not be made."));
    return card;
  }
  const r = a.result;
  if (a.kind === "research") {
    card.append(h("h3", r.question || a.title), prose(r.answer || ""));
    if (r.sources?.length) {
      card.append(h("ol.sources", r.sources.map((s) => h("li", { value: s.n },
        h("span", s.title || s.link), " ", h("code.small", s.link)))));
    }
  } else if (a.kind === "demo") {
    card.append(h("h3", r.title || a.title));
    if (r.description) card.append(h("p.small.muted", r.description));
    card.append(demoFrame(a.job_id, r.title || a.title));
  } else if (a.kind === "visual") {
    card.append(h("h3", r.title || a.title));
    const url = URL.createObjectURL(new Blob([r.svg || ""], { type: "image/svg+xml" }));
    card.append(h("img.diagram", { src: url, alt: r.description || r.title || "Diagram" }));
  } else if (r.artifacts) {
    for (const [kind, value] of Object.entries(r.artifacts)) card.append(studyArtifact(kind, value, a.job_id));
    for (const [kind, why] of Object.entries(r.failed || {})) {
      card.append(h("p.small.muted", `${NOUNS[kind] || kind} not written: ${why}`));
    }
  } else {
    card.append(studyArtifact(a.kind, r, a.job_id));
  }
  return card;
}

function demoFrame(jobId, title) {
  const frame = h("iframe.demo-frame", {
    src: `/api/frames/demo/${encodeURIComponent(jobId)}`,
    sandbox: "allow-scripts",  // never allow-same-origin: the demo cannot touch the app
    title: `Interactive demo: ${title || ""}`,
    loading: "lazy",
    referrerpolicy: "no-referrer",
  });
  const grow = h("button.small", { type: "button" }, "Larger");
  grow.addEventListener("click", () => {
    const big = frame.classList.toggle("tall");
    grow.textContent = big ? "Smaller" : "Larger";
  });
  return h("div.demo", frame, h("div.demo-actions", grow));
}

function studyArtifact(kind, value, jobId) {
  const box = h("div.study-artifact", { dataset: { kind } }, h("h3", value.title || NOUNS[kind]));
  if (ARTIFACT_KINDS.includes(kind)) box.append(keptActions(jobId, kind));
  if (kind === "notes") {
    box.append(prose(value.markdown || ""));
  } else if (kind === "flashcards") {
    box.append(h("ul.flashcards", (value.cards || []).map((c) => h("li",
      h("details.flashcard", h("summary", c.front), h("div.flash-back", c.back))))));
  } else if (kind === "study_plan") {
    if (value.goal) box.append(h("p.small", h("strong", "Goal: "), value.goal));
    box.append(h("ol.plan-steps", (value.steps || []).map((s) => h("li",
      h("strong", s.title), s.minutes ? h("span.muted", ` · ${s.minutes} min`) : null,
      s.detail ? h("p.small", s.detail) : null))));
  }
  return box;
}

/** Filled once the Artifacts view lists this one (the list is shared, fetched once a moment). */
function keptActions(jobId, kind) {
  const row = h("p.artifact-links", { hidden: true });
  listArtifacts().then((list) => {
    const kept = list.find((x) => x.job_id === jobId && x.kind === kind);
    if (!kept) return;
    row.append(
      h("button.small.copy-markdown", { type: "button", onclick: () => copyArtifact(kept.id) }, "Copy as Markdown"),
      h("a.small.open-in-artifacts", { href: `#/artifacts/${encodeURIComponent(kept.id)}` }, "Open in Artifacts"));
    row.hidden = false;
  }).catch(() => {});  // not listed (yet): the card stays as it is
  return row;
}

function prose(text) {
  const el = h("div.prose");
  renderMarkdown(el, text);
  return el;
}
