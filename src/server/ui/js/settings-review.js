// Settings → Review: the daily caps (new cards, reviews), the recall FSRS aims for and the hour a
// day starts, saved with PUT /api/settings/review (the server checks the ranges and says what is
// allowed); below, each imported Anki deck's own options (read from the deck, not edited here).

import { api } from "./api.js";
import { h } from "./dom.js";
import { refreshReviewCount, state } from "./store.js";
import { toast } from "./toast.js";

export function reviewSection(s, redraw) {
  const r = s.review || { new_cards_per_day: 20, reviews_per_day: 200, desired_retention: 0.9 };
  const field = (id, label, value, attrs, help) => [
    h("label", { for: id }, label),
    h("div.review-field", h("input", { id, type: "number", value, required: true, ...attrs }),
      h("span.muted.small", help)),
  ];
  const error = h("p.form-error", { role: "alert", hidden: true });
  const form = h("form.review-form",
    field("review-new", "New cards per day", r.new_cards_per_day, { min: 0, max: 1000, step: 1 },
      "0 – 1000 · ideas seen for the first time"),
    field("review-max", "Reviews per day", r.reviews_per_day, { min: 1, max: 10000, step: 1 },
      "1 – 10000 · cards coming back; the rest wait for the next days"),
    field("review-retention", "Desired recall (%)", Math.round(r.desired_retention * 100),
      { min: 70, max: 97, step: 1 }, "70 – 97 · higher means more reviews"),
    field("review-day", "Day starts at (hour)", r.day_starts_hour ?? 4, { min: 0, max: 23, step: 1 },
      "0 – 23 · as in Anki: answers before this hour count for the day before"),
    h("button.primary", { type: "submit" }, "Save review limits"));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.hidden = true;
    const number = (id) => Number(form.querySelector(`#${id}`).value);
    const body = {
      new_cards_per_day: number("review-new"),
      reviews_per_day: number("review-max"),
      desired_retention: Math.round(number("review-retention")) / 100,
      day_starts_hour: number("review-day"),
    };
    try {
      state.settings = await api.put("/api/settings/review", body);
      toast("Review limits saved.");
      refreshReviewCount();
      redraw();
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
    }
  });
  return h("section.settings-section", { "aria-labelledby": "review-settings-title" },
    h("h2", { id: "review-settings-title" }, "Review"),
    h("p.muted.small", "Each day's reviews are capped so a busy week never comes back as a wall: overdue cards are spread over the next days, the ones you are most likely to forget first."),
    form, error, ankiDecks(r.decks || {}));
}

// The options each imported Anki deck brought: its desired recall and whether Anki had tuned its
// scheduling to the learner's answers (its own FSRS parameters) or used the defaults.
function ankiDecks(decks) {
  const names = Object.keys(decks);
  if (!names.length) return null;
  return h("div.anki-decks",
    h("h3", "Decks from Anki"),
    h("p.muted.small", "Cards of these decks keep the options they had in Anki. To change them, change them in Anki and import the deck again."),
    h("table.anki-deck-table",
      h("thead", h("tr", h("th", "Deck"), h("th", "Desired recall"), h("th", "Scheduling"))),
      h("tbody", ...names.map((name) => {
        const d = decks[name];
        return h("tr",
          h("td", name.split("::").join(" › ")),
          h("td", `${Math.round(d.desired_retention * 100)} %`),
          h("td", d.parameters.length ? "Tuned to your answers in Anki" : "Anki's defaults"));
      }))));
}
