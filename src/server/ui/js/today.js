// Today (#/today): what to do now, at most five steps from GET /api/today — due reviews, the
// open session, the next topic, a misconception to revisit, import/ask when there is nothing
// yet. One click does each step: it opens the step's #/ route, or with a model starts the
// session on the step's topic. Three states: empty (nothing imported, no session), busy, done.

import { api } from "./api.js";
import { h, replace } from "./dom.js";
import { go } from "./router.js";
import { modelsReady, refreshChats } from "./store.js";
import { toast } from "./toast.js";
import { dayPhrase } from "./when.js";

const ICONS = { review: "↻", session: "▸", goal: "◎", learn: "✦", misconception: "!", import: "↥", ask: "?" };
const KIND_NAMES = {
  review: "Reviews", session: "Your session", goal: "Your goal", learn: "Learn next", misconception: "Set it straight",
  import: "Get started", ask: "Get started",
};

export async function mountToday({ main, dock }) {
  document.body.dataset.view = "today";
  const page = h("section.today", { "aria-labelledby": "today-title" });
  replace(main, h("div.today-scroll", page));
  renderTodayDock(dock);
  let data;
  try {
    data = await api.get("/api/today");
  } catch (error) {
    replace(page, h("h1", { id: "today-title" }, "Today"),
      h("p.inline-error", `Could not work out today's plan: ${error.message}`),
      h("p", h("button", { type: "button", onclick: () => mountToday({ main, dock }) }, "Try again")));
    document.body.dataset.today = "error";
    return {};
  }
  const day = new Date().toLocaleDateString(undefined, { weekday: "long", day: "numeric", month: "long" });
  if (data.state === "done") {
    replace(page, h("div.today-done",
      h("p.today-date", day),
      h("h1", { id: "today-title" }, "All done for today"),
      h("p.lede", "Nothing is due for review, no session is waiting for you, and there is no new topic ready to start."),
      h("p.muted", data.next_review
        ? `Your next review is due ${dayPhrase(`${data.next_review}T12:00:00`)}.`
        : "Come back after your next session: what you study becomes cards here."),
      h("div.review-links",
        h("a.button-link", { href: "#/" }, "Explore the map"),
        h("a.button-link", { href: "#/ask" }, "Ask a question"),
        h("a.button-link", { href: "#/stats" }, "See your progress"),
        h("a.button-link", { href: "#/goals" }, "Set a goal"))));
  } else {
    const empty = data.state === "empty";
    replace(page,
      h("header.today-head",
        h("p.today-date", day),
        h("h1", { id: "today-title" }, empty ? "Welcome to Studyhall" : "Today"),
        h("p.lede", empty
          ? "There is nothing to study yet. Bring in your notes, or ask about something you want to learn."
          : stepsLine(data.steps.length))),
      h("ol.today-steps", data.steps.map((step, i) => stepCard(step, i === 0))),
      empty ? null : data.goals
        ? h("p.today-goals.small", h("a", { href: "#/goals" }, "All your goals"), " — how far each has come.")
        : h("p.today-goals.small", h("a", { href: "#/goals" }, "Your goals"),
          " — set one that spans sessions, and each session picks up where the last left off."));
  }
  document.body.dataset.today = data.state;
  return {};
}

function stepsLine(n) {
  return n === 1 ? "One thing to do, picked from your notes and your progress."
    : `${n} things to do, most important first.`;
}

function stepCard(step, first) {
  const label = step.action.label;
  const button = h(first ? "button.primary" : "button", {
    type: "button", onclick: (e) => run(step, e.currentTarget),
  }, label);
  return h("li.today-step", { dataset: { kind: step.kind } },
    h("span.today-icon", { "aria-hidden": "true" }, ICONS[step.kind] || "•"),
    h("div.today-body",
      h("p.today-kind", KIND_NAMES[step.kind] || step.kind),
      h("h2.today-title", step.title),
      h("p.today-why", step.why),
      h("div.today-action", button)));
}

/** One click: start the step's session (on its topic or goal) when a model can run it, else
 * open its route. */
async function run(step, button) {
  const { session, goal_id: goalId } = step.action;
  if (!(session || goalId) || !modelsReady()) return go(step.action.href);
  button.disabled = true;
  try {
    // A goal's session resumes at its next step; a topic of the map is studied from its note
    // ("Study this"): its sections are the material.
    const { id } = await api.post("/api/chats", goalId ? { goal_id: goalId }
      : session.node_id ? { topic: session.topic, node_id: session.node_id } : { topic: session.topic });
    await refreshChats();
    go(`#/session/${id}?start=1${goalId ? "&goal=1" : ""}`);
  } catch (error) {
    button.disabled = false;
    toast(`The session did not start: ${error.message}`, { kind: "error" });
  }
}

function renderTodayDock(dock) {
  replace(dock, h("div.dock-section.today-dock",
    h("h2.dock-title", "How today is picked"),
    h("ol.today-rules",
      h("li", "Cards due for review come first: a few minutes now keeps them from fading."),
      h("li", "Then the session you left open, at the step where you stopped."),
      h("li", "Then your goal, at its first step that is not solid yet."),
      h("li", "Then one new topic whose groundwork you already have."),
      h("li", "Then something you mixed up before, to set it straight.")),
    h("p.muted.small", "Everything here is worked out from your own answers and reviews; it changes as you study.")));
}

/** At launch (no route asked for): open Today once the learner has something under way — cards
 * due, a session left open, a mix-up to set straight. A fresh import with nothing studied yet
 * still opens on Home, its new map; with nothing at all Home's welcome says how to start. */
const UNDER_WAY = new Set(["review", "session", "misconception"]);

export async function openTodayFirst() {
  if (location.hash && location.hash !== "#") return;
  try {
    const data = await api.get("/api/today");
    const underWay = data.steps.some((s) => UNDER_WAY.has(s.kind));
    if (underWay && !location.hash) history.replaceState(null, "", "#/today");
  } catch (error) {
    console.warn("could not read today's plan", error);  // Home opens, as before
  }
}
