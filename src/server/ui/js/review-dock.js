// The dock beside a review: where the current card stands (never its answer), what the four
// grades mean, today's counts, the daily limits (set in Settings) and the cards taken out of
// review, each with "Put back".

import { api } from "./api.js";
import { h, plural, replace, stateBadge } from "./dom.js";
import { refreshReviewCount, state } from "./store.js";
import { toast } from "./toast.js";
import { chance, percent } from "./when.js";

const MEANINGS = [
  ["1", "Again", "You forgot it. It comes back in a few minutes."],
  ["2", "Hard", "You got it, with real effort."],
  ["3", "Good", "You recalled it."],
  ["4", "Easy", "It came at once. It waits longer."],
];

export function masteryMeter(value) {
  const bar = h("div.meter", { role: "meter", "aria-valuemin": "0", "aria-valuemax": "1",
    "aria-valuenow": value === null || value === undefined ? null : String(value),
    "aria-label": "Mastery" }, h("div.meter-fill"), h("div.meter-solid", { title: "Solid from 0.80" }));
  if (value !== null && value !== undefined) {
    bar.firstChild.style.width = `${Math.round(value * 100)}%`;
    bar.firstChild.classList.toggle("solid", value >= 0.8);  // the same threshold as "solid"
  }
  return bar;
}

export function renderCardDock(dock, card, counts) {
  replace(dock, h("div.dock-section.review-dock",
    h("h2.dock-title", "This card"),
    stateBadge(card.state),
    card.mastery !== null && card.mastery !== undefined
      ? h("div.dock-mastery", h("p.small", `Mastery ${card.mastery.toFixed(2)}`), masteryMeter(card.mastery))
      : null,
    h("p.small.muted", recallLine(card)),
    h("h3", "Grades"),
    h("dl.grade-meanings", MEANINGS.map(([key, label, what]) => [
      h("dt", h("kbd", key), ` ${label}`), h("dd", what)])),
    h("p.small.muted", h("kbd", "Space"), " shows the answer; ", h("kbd", "u"), " takes the last grade back."),
    todayCounts(counts),
  ));
}

/** FSRS's chance of recall means something only once the card has a review history (it has
 * graduated from its first learning steps); before that it reads 100 % a minute after "Again". */
function recallLine(card) {
  if (card.card === "new" || card.retrievability === null || card.retrievability === undefined) {
    return "A new card: this is its first review.";
  }
  if (card.card !== "review") return "Still being learnt: it comes back in short steps until it sticks.";
  return `Chance you recall it now: ${chance(card.retrievability)}${card.overdue ? " · overdue" : ""}.`;
}

export function renderReviewDock(dock, counts, suspended = [], { onBack = null } = {}) {
  replace(dock, h("div.dock-section.review-dock",
    h("h2.dock-title", "Reviews"),
    h("p.small.muted", "Spaced review brings each idea back just before you would forget it, so a few minutes a day keep what you learnt."),
    todayCounts(counts),
    limits(),
    outOfReview(suspended, onBack),
  ));
}

/** Take a node's card out of review (`true`) or put it back (`false`); the sidebar's count
 * follows. Rejects with the server's reason. */
export async function setOutOfReview(nodeId, suspended) {
  await api.put(`/api/cards/${encodeURIComponent(nodeId)}`, { suspended });
  refreshReviewCount();
}

/** The cards taken out of review ("Stop reviewing this card"), each with a way back. */
function outOfReview(suspended, onBack) {
  if (!suspended.length) return null;
  const SHOWN = 8;
  const row = (c) => h("li.out-of-review-card",
    h("span.out-of-review-text", { title: c.text }, c.text),
    h("button.link-button.small", { type: "button", "aria-label": `Put “${c.text}” back in your reviews`,
      onclick: async (e) => {
        const button = e.currentTarget;  // null once the handler has awaited
        button.disabled = true;
        try {
          await setOutOfReview(c.node_id, false);
        } catch (error) {
          button.disabled = false;
          toast(`It is still out of your reviews: ${error.message}`, { kind: "error" });
          return;
        }
        onBack?.();
      } }, "Put back"));
  return h("section.out-of-review", h("h3", `Out of review (${suspended.length})`),
    h("ul.out-of-review-list", suspended.slice(0, SHOWN).map(row)),
    suspended.length > SHOWN ? h("details", h("summary.small", `${suspended.length - SHOWN} more`),
      h("ul.out-of-review-list", suspended.slice(SHOWN).map(row))) : null);
}

function todayCounts(counts) {
  if (!counts) return null;
  return h("section", h("h3", "Today"),
    h("p.small", counts.due_today
      ? `${plural(counts.due_today, "card")} to go · ${counts.new_today} new`
      : "Nothing due today.",
    counts.overdue ? ` · ${counts.overdue} overdue` : ""));
}

function limits() {
  const r = state.settings?.review;
  if (!r) return null;
  return h("section", h("h3", "Daily limits"),
    h("p.small", `${plural(r.new_cards_per_day, "new card")} and up to ${plural(r.reviews_per_day, "review")} a day, aiming at ${percent(r.desired_retention)} recall. `,
      h("a", { href: "#/settings" }, "Change")));
}
