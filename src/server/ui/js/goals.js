// Goals (#/goals[?goal=<id>]): goals that span sessions — set one (what, by when, optionally its
// steps), see each goal's steps marked solid / next / to do from your own evidence, start a
// session that picks up at the next step, delete a goal. Also the short "Your goals" summary
// the Stats screen shows. Everything is text nodes: a goal's words are never read as HTML.

import { api } from "./api.js";
import { h, plural, replace, stateGlyph } from "./dom.js";
import { go } from "./router.js";
import { modelsReady, refreshChats } from "./store.js";
import { toast } from "./toast.js";

const MAX_TEXT = 200;
const STATUS = { solid: "Solid", next: "Next", open: "To do" };

export async function mountGoals({ main, dock }, params, query) {
  document.body.dataset.view = "goals";
  const page = h("section.goals", { "aria-labelledby": "goals-title" });
  replace(main, h("div.goals-scroll", page));
  renderGoalsDock(dock);
  let focus = query?.get("goal") || null;
  const draw = async () => {
    let data;
    try {
      data = await api.get("/api/goals");
    } catch (error) {
      replace(page, h("h1", { id: "goals-title" }, "Goals"),
        h("p.inline-error", `Could not load your goals: ${error.message}`),
        h("p", h("button", { type: "button", onclick: draw }, "Try again")));
      document.body.dataset.goals = "error";
      return;
    }
    const list = data.goals;
    replace(page,
      h("header.goals-head", h("h1", { id: "goals-title" }, "Goals"),
        h("p.lede", list.length
          ? "Each session on a goal picks up at the first step you have not made solid yet."
          : "Set a goal that takes more than one sitting. Each session on it picks up where the last one left off.")),
      list.length ? h("ol.goal-list", { "aria-label": "Your goals" }, list.map((g) => goalCard(g, draw, g.id === focus))) : null,
      list.length ? h("h2.goals-new", "Set another goal") : null,
      goalForm(draw));
    document.body.dataset.goals = list.length ? "listed" : "empty";
    const picked = focus && page.querySelector(`[data-goal-id="${CSS.escape(focus)}"]`);
    if (picked) picked.scrollIntoView({ block: "center" });
  };
  await draw();
  return {
    update(p, q) {
      focus = q.get("goal");
      draw();
    },
    unmount() {
      document.body.dataset.view = "";
      delete document.body.dataset.goals;
    },
  };
}

function goalForm(done) {
  const text = h("input", { id: "goal-text", name: "text", type: "text", maxlength: String(MAX_TEXT),
    required: true, autocomplete: "off", placeholder: "e.g. learn graph algorithms, pass the stats exam" });
  const target = h("input", { id: "goal-target", name: "target", type: "date" });
  const steps = h("textarea", { id: "goal-steps", name: "steps", rows: "3",
    placeholder: "What a graph is\nBreadth-first search\nDijkstra's algorithm" });
  const error = h("p.form-error", { role: "alert", hidden: true });
  const save = h("button.primary", { type: "submit" }, "Set goal");
  const form = h("form.goal-form.card", { "aria-label": "New goal" },
    h("div.goal-form-row",
      h("div.goal-field.grow", h("label", { for: "goal-text" }, "What do you want to learn?"), text),
      h("div.goal-field", h("label", { for: "goal-target" }, "By when (optional)"), target)),
    h("details.goal-steps",
      h("summary", "Set out the steps yourself (optional)"),
      h("label", { for: "goal-steps" }, "One step per line, in the order you want to learn them"),
      steps),
    h("p.muted.small", "Leave the steps out and your first session on the goal sets them out with you."),
    error,
    h("div.goal-actions", save));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const words = text.value.trim();
    if (!words) return;
    const body = { text: words };
    if (target.value) body.target = target.value;
    const plan = stepsPlan(steps.value);
    if (plan) body.plan = plan;
    save.disabled = true;
    error.hidden = true;
    try {
      await api.post("/api/goals", body);
      await done();
    } catch (err) {
      error.textContent = `The goal was not saved: ${err.message}`;
      error.hidden = false;
      save.disabled = false;
    }
  });
  return form;
}

/** The learner's lines as a plan in order (the server's plan parser checks it). */
function stepsPlan(raw) {
  const lines = raw.split("\n").map((s) => s.trim()).filter(Boolean);
  if (!lines.length) return null;
  const label = (s) => s.replaceAll('"', "'");  // a label cannot hold a double quote
  const nodes = lines.map((s, i) => `  S${i + 1}["${label(s)}"]`);
  const edges = lines.slice(1).map((_, i) => `  S${i + 1} --> S${i + 2}`);
  return { title: "", mermaid: ["flowchart TD", ...nodes, ...edges].join("\n") };
}

function goalCard(goal, changed, focused) {
  const p = goal.progress;
  const start = h("button.primary", { type: "button", onclick: (e) => startSession(goal, e.currentTarget) },
    p.total && !p.next ? "Start a review session" : "Start a session");
  const remove = h("button", { type: "button", onclick: async () => {
    if (!window.confirm(`Delete the goal “${goal.text}”? Its sessions and what you learned in them stay.`)) return;
    try {
      await api.del(`/api/goals/${encodeURIComponent(goal.id)}`);
      await changed();
    } catch (err) {
      toast(`The goal was not deleted: ${err.message}`, { kind: "error" });
    }
  } }, "Delete");
  const nodes = goal.plan?.nodes || [];
  return h("li.goal-card.card", { dataset: { goalId: goal.id }, class: focused ? "focused" : "" },
    h("h2.goal-title", goal.text),
    h("p.goal-meta.small.muted", [goal.target ? `By ${longDate(goal.target)}` : "No date set",
      goal.chat_ids.length ? plural(goal.chat_ids.length, "session") : "no session yet"].join(" · ")),
    progressLine(goal),
    nodes.length ? h("ol.goal-steps-list", nodes.map((n) => h("li", { dataset: { status: n.status } },
      n.status === "solid" ? stateGlyph("solid", 12) : h("span.goal-dot", { "aria-hidden": "true" }, n.status === "next" ? "▸" : "○"),
      h("span.goal-step-label", n.label),
      h("span.goal-step-status.small", STATUS[n.status] || n.status)))) : null,
    h("div.goal-actions", start, remove));
}

function progressLine(goal) {
  const p = goal.progress;
  if (!p.total) {
    return h("p.goal-next", "No steps yet: your first session on this goal sets them out with you.");
  }
  return h("div.goal-progress", progressBar(p),
    h("p.goal-next", `${p.solid} of ${plural(p.total, "step")} solid. `,
      p.next ? `Next: step ${p.next.number}, ${p.next.label}.` : "Every step is solid."));
}

async function startSession(goal, button) {
  if (!modelsReady()) return go("#/settings?first=1");  // a session needs a model first
  button.disabled = true;
  try {
    const { id } = await api.post("/api/chats", { goal_id: goal.id });
    await refreshChats();
    go(`#/session/${id}?start=1&goal=1`);
  } catch (error) {
    button.disabled = false;
    toast(`The session did not start: ${error.message}`, { kind: "error" });
  }
}

function longDate(day) {
  return new Date(`${day}T12:00:00`).toLocaleDateString(undefined, { day: "numeric", month: "long", year: "numeric" });
}

function renderGoalsDock(dock) {
  replace(dock, h("div.dock-section.goals-dock",
    h("h2.dock-title", "How goals work"),
    h("ol.today-rules",
      h("li", "A goal holds a plan: the steps to get there, set out by you or in your first session on it."),
      h("li", "A step turns solid once your answers and reviews show you know the topics it covers."),
      h("li", "Each new session starts at the first step that is not solid yet, and the teacher is told what you already have."),
      h("li", "Today reminds you of the goal until every step is solid.")),
    h("p.muted.small", "Deleting a goal keeps its sessions and everything you learned in them.")));
}

function progressBar(p) {
  const fill = h("div.progress-fill");
  fill.style.width = `${Math.round((100 * p.solid) / p.total)}%`;  // CSSOM: the CSP allows it
  return h("div.progress", { role: "progressbar", "aria-valuemin": "0", "aria-valuemax": String(p.total),
    "aria-valuenow": String(p.solid), "aria-label": `${p.solid} of ${p.total} steps solid` }, fill);
}

/** Stats' "Your goals": each goal's steps solid of its total, linked to the Goals screen. */
export function goalsSummary() {
  const box = h("section.goals-summary", { "aria-labelledby": "goals-summary-title" },
    h("h2", { id: "goals-summary-title" }, "Your goals"), h("p.muted.small", "Loading…"));
  api.get("/api/goals").then(({ goals }) => {
    replace(box, h("h2", { id: "goals-summary-title" }, "Your goals"),
      goals.length ? h("ul.goal-summary-list", goals.map((g) => h("li",
        h("a", { href: `#/goals?goal=${encodeURIComponent(g.id)}` }, g.text),
        h("span.count.small", g.progress.total ? `${g.progress.solid} of ${g.progress.total} steps solid` : "no steps yet"),
        g.progress.total ? progressBar(g.progress) : null,
        g.progress.next ? h("span.small.muted.goal-summary-next", `Next: ${g.progress.next.label}`) : null)))
        : h("p.small.muted", "No goal yet. A goal spans sessions: each one picks up where the last left off."),
      h("p", h("a.button-link", { href: "#/goals" }, goals.length ? "See your goals" : "Set a goal")));
  }, (error) => {
    replace(box, h("h2", { id: "goals-summary-title" }, "Your goals"),
      h("p.inline-error", `Could not load your goals: ${error.message}`));
  });
  return box;
}
