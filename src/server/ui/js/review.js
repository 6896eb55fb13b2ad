// Review: today's cards one at a time — the prompt, "Show answer" (Space / Enter), then four
// grades (1–4) each saying when the card would come back; a progress line, a calm summary, and
// an empty state that says where cards come from. No model is needed. #/review?node=ID reviews
// that one node now ("Review now" in the graph's dock). A grade given by mistake is taken back
// with "Undo" (u): the card comes back as it was, to be graded again. A card not worth reviewing
// (a poor prompt) is taken out of review from under it; its topic's dock on the map, or the card
// reviewed alone, puts it back.

import { api } from "./api.js";
import { toast } from "./toast.js";
import { h, plural, replace, stateBadge } from "./dom.js";
import { fillAnswer, renderPrompt } from "./review-card.js";
import { openNewSession } from "./dialogs.js";
import { go } from "./router.js";
import { refreshReviewCount } from "./store.js";
import { renderCardDock, renderReviewDock, setOutOfReview } from "./review-dock.js";
import { dayPhrase, waitText } from "./when.js";

export const GRADES = [
  { key: "1", grade: "again", label: "Again" },
  { key: "2", grade: "hard", label: "Hard" },
  { key: "3", grade: "good", label: "Good" },
  { key: "4", grade: "easy", label: "Easy" },
];

export async function mountReview({ main, dock }, params, query) {
  document.body.dataset.view = "review";
  const page = h("section.review", { "aria-labelledby": "review-title" });
  replace(main, h("div.review-scroll", page));
  let session = null;
  let disposed = false;

  function begin(only) {
    session = { only, graded: [], card: null, counts: null, nextDue: null, revealed: false, busy: false };
    next();
  }

  async function next() {
    const s = session;
    s.card = null;
    s.revealed = false;
    document.body.dataset.review = "loading";
    let data;
    try {
      data = await api.get(s.only && !s.graded.length
        ? `/api/review?node=${encodeURIComponent(s.only)}` : "/api/review?limit=20");
    } catch (error) {
      if (s !== session || disposed) return;
      replace(page, h("div.review-empty", h("h1", { id: "review-title" }, "Review"),
        h("p.inline-error", `Could not load your reviews: ${error.message}`),
        h("p", h("button", { type: "button", onclick: () => next() }, "Try again"))));
      document.body.dataset.review = "error";
      return;
    }
    if (s !== session || disposed) return;
    s.counts = data.counts;
    s.nextDue = data.next_due_at;
    s.suspended = data.suspended;
    const card = s.only && s.graded.length ? null : data.due[0];
    if (!card) {
      if (s.graded.length) showSummary();
      else showEmpty();
      return;
    }
    s.card = card;
    showCard();
  }

  // What is left, counted down: today's queue as the server now has it (a card graded Again
  // comes back, so "left" may stay put, but it never grows as you grade Good).
  function progress() {
    const s = session;
    const done = s.graded.length;
    const left = s.only ? 1 : Math.max(1, s.counts.due_today);
    return { done, left, total: done + left };
  }

  function showCard() {
    const s = session;
    const { card } = s;
    const { done, left, total } = progress();
    const cloze = card.kind === "cloze";
    const prompt = renderPrompt(card);
    const answer = h("div.review-answer", { hidden: !s.revealed, id: "review-answer" });
    const article = h("article.review-card", { tabindex: "-1", "aria-labelledby": "review-title" },
      h("div.review-card-head",
        h("p.review-kind", cloze ? "Fill in the blank" : card.kind === "flashcard" ? "Flashcard" : "Recall",
          card.topic ? h("span.review-topic", ` · ${card.topic}`) : null),
        stateBadge(card.state)),
      prompt, answer);
    const actions = h("div.review-actions");
    replace(page,
      h("header.review-head",
        h("h1.visually-hidden", { id: "review-title" }, "Review"),
        h("div.review-head-line",
          h("p.review-progress", { role: "status", "aria-live": "polite" },
            s.only ? "Reviewing one card" : leftText(left, done)),
          undoButton()),
        h("div.progress.thin", { role: "progressbar", "aria-label": "Review progress",
          "aria-valuemin": "0", "aria-valuemax": String(total), "aria-valuenow": String(done) },
        h("div.progress-fill"))),
      article, actions, outOfReviewAside(card));
    page.querySelector(".progress-fill").style.width = `${Math.round((done / total) * 100)}%`;
    drawActions(actions, answer, prompt);
    renderCardDock(dock, card, s.counts);
    document.body.dataset.review = "question";
    article.focus({ preventScroll: true });
  }

  function drawActions(actions, answer, prompt) {
    const s = session;
    if (!s.revealed) {
      replace(actions, h("button.primary.show-answer", { type: "button", onclick: reveal },
        "Show answer", h("kbd", "Space")));
      return;
    }
    fillAnswer(answer, prompt, s.card);
    answer.hidden = false;
    replace(actions,
      h("p.grade-question", { id: "grade-question" }, "How well did you recall it?"),
      h("div.grades", { role: "group", "aria-labelledby": "grade-question" },
        GRADES.map(({ key, grade, label }) => {
          const wait = waitText(s.card.next?.[grade]);
          return h("button.grade", {
            type: "button", class: `grade-${grade}`, dataset: { grade },
            "aria-label": `${label} (${key}) — back in ${wait}`, disabled: s.busy,
            onclick: () => submit(grade),
          }, h("span.grade-top", h("kbd", key), h("span.grade-label", label)),
          h("span.grade-wait", wait));
        })),
      h("p.form-error", { role: "alert", hidden: true, id: "grade-error" }));
  }

  function reveal() {
    const s = session;
    if (!s.card || s.revealed) return;
    s.revealed = true;
    drawActions(page.querySelector(".review-actions"), page.querySelector(".review-answer"),
      page.querySelector(".review-prompt"));
    document.body.dataset.review = "answer";
  }

  async function submit(grade) {
    const s = session;
    if (!s.card || !s.revealed || s.busy) return;
    s.busy = true;
    for (const b of page.querySelectorAll(".grade")) b.disabled = true;
    page.querySelector(`.grade-${grade}`)?.classList.add("chosen");
    const card = s.card;
    try {
      const result = await api.post(`/api/review/${encodeURIComponent(card.node_id)}`,
        { grade, kind: card.kind });
      if (s !== session || disposed) return;
      s.graded.push({ node_id: card.node_id, grade, due_at: result.due_at, text: card.text,
        grade_id: result.grade_id, card });
      refreshReviewCount();
    } catch (error) {
      if (s !== session || disposed) return;
      s.busy = false;
      for (const b of page.querySelectorAll(".grade")) b.disabled = false;
      const el = page.querySelector("#grade-error");
      if (el) {
        el.textContent = `The grade was not saved: ${error.message}`;
        el.hidden = false;
      }
      return;
    }
    s.busy = false;
    next();
  }

  /** "Undo" for the last grade given here (u), or nothing before the first. */
  function undoButton() {
    const last = session.graded.at(-1);
    if (!last) return null;
    const label = GRADES.find((g) => g.grade === last.grade).label;
    return h("button.small.undo-grade", { type: "button", onclick: undo,
      "aria-label": `Undo the last grade (${label}) and review that card again`,
      title: "Take the last grade back: the card comes back as it was" },
    `↶ Undo “${label}”`, h("kbd", "u"));
  }

  async function undo() {
    const s = session;
    const last = s.graded.at(-1);
    if (!last || s.busy) return;
    s.busy = true;
    try {
      await api.del(`/api/grades/${encodeURIComponent(last.grade_id)}`);
    } catch (error) {
      if (s === session && !disposed) toast(`The grade was not taken back: ${error.message}`, { kind: "error" });
      s.busy = false;
      return;
    }
    s.busy = false;
    if (s !== session || disposed) return;
    s.graded.pop();
    refreshReviewCount();
    s.card = last.card;  // as it was before that grade (its due dates per grade too)
    s.revealed = false;
    showCard();
  }

  // Beside the card: take it out of review; a card already out (reviewed from its topic's
  // "Review now") says so, with a way back.
  function outOfReviewAside(card) {
    const out = session.suspended?.some((c) => c.node_id === card.node_id);
    if (out) {
      return h("p.review-aside.out-of-review-note",
        "Out of your reviews: it is not in your daily queue. ",
        h("button.link-button.put-back-card", { type: "button", onclick: () => putBack(card) },
          "Put it back"));
    }
    return h("p.review-aside", h("button.link-button.suspend-card", { type: "button",
      onclick: () => suspend(card),
      title: "Its grades and mastery stay; its topic on the map can put it back" },
    "Stop reviewing this card"));
  }

  // Reviewing one card, the card stays on screen and its aside changes; in the queue, the next
  // card comes.
  function markOut(card, out) {
    const s = session;
    s.suspended = out ? [...s.suspended, { node_id: card.node_id, text: card.text || card.topic || "" }]
      : s.suspended.filter((c) => c.node_id !== card.node_id);
    if (s.only && s.card?.node_id === card.node_id) {
      page.querySelector(".review-aside")?.replaceWith(outOfReviewAside(card));
      page.querySelector(out ? ".put-back-card" : ".suspend-card")?.focus();
      // The dock's "Today" counts leave the card out (or count it again), as the server does.
      api.get(`/api/review?node=${encodeURIComponent(card.node_id)}`).then((data) => {
        if (s !== session || disposed || s.card?.node_id !== card.node_id) return;
        s.counts = data.counts;
        renderCardDock(dock, card, s.counts);
      }, () => {});  // the counts stay as they were; the card's own state is already right
    }
  }

  // Take the card out of review (`out`) or put it back: true once done and still on screen; a
  // refusal says why and changes nothing.
  async function setOut(card, out) {
    const s = session;
    if (s.busy) return false;
    s.busy = true;
    try {
      await setOutOfReview(card.node_id, out);
    } catch (error) {
      toast(`${out ? "The card is still in" : "It is still out of"} your reviews: ${error.message}`, { kind: "error" });
      return false;
    } finally {
      s.busy = false;
    }
    return s === session && !disposed;
  }

  async function suspend(card) {
    const s = session;
    if (!await setOut(card, true)) return;
    toast(`“${nameOf(card)}” is out of your reviews.`, { action: ["Undo", async () => {
      if (!await setOut(card, false)) return;
      if (s.only) markOut(card, false);
      else if (!s.card?.node_id) next();
    }] });
    if (s.only) markOut(card, true);
    else next();
  }

  async function putBack(card) {
    if (!await setOut(card, false)) return;
    toast(`“${nameOf(card)}” is back in your reviews.`);
    markOut(card, false);
  }

  function showSummary() {
    const s = session;
    const cards = new Map();  // node -> its last grade's due date, and whether it was forgotten
    for (const g of s.graded) {
      const seen = cards.get(g.node_id) || { forgot: false };
      cards.set(g.node_id, { forgot: seen.forgot || g.grade === "again", due_at: g.due_at });
    }
    const relearn = [...cards.values()].filter((c) => c.forgot);
    const soonest = relearn.map((c) => c.due_at).sort()[0];
    const counts = Object.fromEntries(GRADES.map(({ grade }) => [grade, 0]));
    for (const g of s.graded) counts[g.grade] += 1;
    // A card forgotten comes back the same visit: "3 cards reviewed in 6 grades", as tallied below.
    const times = s.graded.length > cards.size ? ` in ${plural(s.graded.length, "grade")}` : "";
    const line = [`${plural(cards.size, "card")} reviewed${times}`,
      relearn.length ? `${relearn.length} to relearn ${dayPhrase(soonest)}` : "all recalled"].join(" · ");
    const left = s.counts?.due_today || 0;
    replace(page, h("div.review-done",
      h("h1", { id: "review-title" }, s.only ? "Reviewed" : "Done for today"),
      h("p.summary-line", line),
      h("p.tally-title.small", "Your grades"),
      h("ul.grade-tally", GRADES.map(({ grade, label }) =>
        h("li", { class: `grade-${grade}` }, h("span.tally-count", String(counts[grade])), label))),
      s.nextDue && !left ? h("p.muted", `Next review ${dayPhrase(s.nextDue)}.`) : null,
      h("div.review-links",
        undoButton(),
        s.only && left ? h("button.primary", { type: "button", onclick: () => go("#/review") },
          `Review today's cards (${left})`) : null,
        h("button", { type: "button", onclick: () => go("#/") }, "Back to the graph"),
        h("button", { type: "button", onclick: () => go("#/stats") }, "See your progress")),
    ));
    renderReviewDock(dock, s.counts, s.suspended, { onBack: () => { if (s === session && !disposed) next(); } });
    document.body.dataset.review = "summary";
  }

  function showEmpty() {
    const s = session;
    const hasCards = Boolean(s.nextDue);
    const allOut = !hasCards && s.suspended.length > 0;  // every card taken out of review
    replace(page, h("div.review-empty",
      h("h1", { id: "review-title" }, hasCards ? "Nothing to review today" : allOut ? "Nothing in your reviews" : "No review cards yet"),
      allOut
        ? h("p.lede", `You took ${({ 1: "your one card", 2: "both your cards" })[s.suspended.length] || `all ${s.suspended.length} of your cards`} out of review. Put any back from the list beside this, or answer new quizzes to make more.`)
        : hasCards
        ? h("p.lede", `Your next card is due ${dayPhrase(s.nextDue)}. Reviewing a little each day keeps what you learnt within reach.`)
        : h("p.lede", "Cards come from what you are tested on. Answer the quizzes in a session, or “Quiz me” on one of your notes, and every idea you were tested on becomes a card here, scheduled to come back just before you would forget it."),
      hasCards
        ? h("p.muted.small", "More cards join as you answer quizzes in your sessions.")
        : h("p.muted.small", "“Quiz me” and reviewing need no API key: the questions come from your notes, the cards from your own graph."),
      h("div.review-links",
        // Today names the note to quiz yourself on next (no key); a session wants one.
        h("button.primary", { type: "button", onclick: () => go("#/today") }, "What to learn today"),
        h("button", { type: "button", onclick: () => openNewSession() }, "Start a session")),
    ));
    renderReviewDock(dock, s.counts, s.suspended, { onBack: () => { if (s === session && !disposed) next(); } });
    document.body.dataset.review = "empty";
  }

  begin(query.get("node"));
  return {
    update(p, q) {
      begin(q.get("node"));
    },
    handleKey(e) {
      const s = session;
      if (e.key === "u" && s?.graded.length && !s.busy) {
        undo();
        return true;
      }
      if (!s?.card) return false;
      if (e.key === " " || e.key === "Enter") {
        if (!s.revealed) reveal();
        return !(e.key === "Enter" && e.target?.closest?.(".grade"));  // Enter on a grade clicks it
      }
      const pick = GRADES.find((g) => g.key === e.key);
      if (pick && s.revealed) {
        submit(pick.grade);
        return true;
      }
      return false;
    },
    unmount() {
      disposed = true;
      document.body.dataset.view = "";
      delete document.body.dataset.review;
    },
  };
}

/** "12 cards left" (this one included), and how many are done once there are some. */
export function leftText(left, done) {
  const rest = left === 1 ? "Last card" : `${plural(left, "card")} left`;
  return done ? `${rest} · ${done} done` : rest;
}

/** A card as a notice names it: its topic, else its text, clipped. */
function nameOf(card) {
  const text = card.topic || card.text || "This card";
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
