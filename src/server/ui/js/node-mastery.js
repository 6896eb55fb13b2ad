// The mastery part of the graph's dock: the node's score and how it was made (GET
// /api/mastery/{id}, newest event first: "Quiz on Dec 1: wrong → 0.42"), its review card (next
// review, chance of recall now), "Review now", and taking its card out of review or back in.

import { api } from "./api.js";
import { h, replace } from "./dom.js";
import { go } from "./router.js";
import { masteryMeter, setOutOfReview } from "./review-dock.js";
import { correctionControls, misconceptionLines } from "./dock-memory.js";
import { chance, dayPhrase } from "./when.js";

const SHOWN = 5;  // events listed before "show all"

/** A section that fills itself once the node's mastery is read. */
export function masterySection(nodeId) {
  const el = h("section.node-mastery", { "aria-label": "Mastery", "aria-busy": "true" },
    h("h3", "Mastery"), h("p.muted.small", "Reading…"));
  load(el, nodeId);
  return el;
}

async function load(el, nodeId) {
  let m;
  try {
    m = await api.get(`/api/mastery/${encodeURIComponent(nodeId)}`);
  } catch (error) {
    replace(el, h("h3", "Mastery"), h("p.inline-error.small", `Could not read it: ${error.message}`));
    el.removeAttribute("aria-busy");
    return;
  }
  const steps = m.explanation.map((s) => ({ ...s, detail: plain(s.detail) }));
  const item = (s) => h("li", { class: s.after > s.before ? "up" : s.after < s.before ? "down" : "" },
    h("span.step-mark", { "aria-hidden": "true" }, s.after > s.before ? "▲" : s.after < s.before ? "▼" : "•"),
    h("span", s.detail));
  replace(el,
    h("h3", "Mastery"),
    m.mastery === null
      ? h("p.small.muted", "Not tried yet: no quiz answers, observations or reviews.")
      : h("div.mastery-row", h("span.mastery-value", m.mastery.toFixed(2)), masteryMeter(m.mastery)),
    misconceptionLines(m),
    h("p.small.review-when", reviewLine(m)),
    h("div.review-buttons",
      h("button.review-now", { type: "button", onclick: () => go(`#/review?node=${encodeURIComponent(nodeId)}`) },
        "Review now"),
      m.suspended || m.due || m.due_at
        ? h("button.link-button.suspend-toggle", { type: "button", onclick: () => toggle(el, nodeId, !m.suspended) },
          m.suspended ? "Put it back in your reviews" : "Stop reviewing it")
        : null),
    steps.length ? h("p.steps-title.small", "How this score was made, newest first") : null,
    steps.length ? h("ol.mastery-steps", steps.slice(0, SHOWN).map(item)) : null,
    steps.length > SHOWN ? h("details.more-steps", h("summary", `${steps.length - SHOWN} older events`),
      h("ol.mastery-steps", steps.slice(SHOWN).map(item))) : null,
    correctionControls(nodeId, m, () => load(el, nodeId)),
  );
  el.removeAttribute("aria-busy");
}

async function toggle(el, nodeId, suspended) {
  try {
    await setOutOfReview(nodeId, suspended);
  } catch (error) {
    el.append(h("p.inline-error.small", `Not changed: ${error.message}`));
    return;
  }
  load(el, nodeId);
}

function reviewLine(m) {
  if (m.suspended) return "Out of your reviews: you stopped reviewing it. Its score stays.";
  // FSRS's chance of recall means something once the card has graduated from its first steps
  // (as in Review's dock); before that it reads 100% a minute after a wrong answer.
  const recall = m.card === "review" && m.retrievability !== null
    ? ` · chance you recall it now ${chance(m.retrievability)}` : "";
  if (m.due) {
    return m.retrievability === null ? "In today's reviews, as a new card." : `In today's reviews${recall}.`;
  }
  if (m.due_at) return `Next review ${dayPhrase(m.due_at)}${recall}.`;
  return "Not in your reviews yet.";
}

/** The server's explanation without internal references: "Quiz c2/q1 on Mar 1" → "Quiz on Mar 1". */
function plain(detail) {
  return detail.replace(/^Quiz \S+ on /, "Quiz on ");
}
