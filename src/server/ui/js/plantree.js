// The session's dock: where the session is (probe → plan → teach), the plan tree with its
// derived statuses (current / visited / upcoming), what the session has cost so far, and
// "Make study material…" from it.

import { h, money, replace } from "./dom.js";
import { makeButton } from "./artifacts-make.js";

const PHASES = [["probe", "Your level"], ["plan", "Plan"], ["teach", "Learn"]];
const STATUS = { current: "Now", visited: "Done", upcoming: "Next" };

export function renderSessionDock(dock, chat, { onExtract } = {}) {
  const phaseIndex = PHASES.findIndex(([p]) => p === chat.phase);
  const proposed = (chat.pending || []).find((p) => p.name === "plan_init");
  const plan = chat.plan || (proposed?.plan ? { ...proposed.plan, title: proposed.input?.title, proposed: true } : null);
  const cost = money(chat.usage?.cost_usd);
  replace(dock, h("div.dock-section.session-dock",
    h("ol.phases", { "aria-label": "Session phase" }, PHASES.map(([p, label], i) => h("li", {
      class: i < phaseIndex ? "done" : i === phaseIndex ? "now" : "",
      "aria-current": i === phaseIndex ? "step" : null,
    }, label))),
    h("section.plan-panel", { "aria-label": "Plan" },
      h("h2.dock-title", plan ? plan.title || "Plan" : "Plan"),
      plan && !plan.proposed ? planTree(plan) : plan ? null : h("p.muted.small", chat.phase === "probe"
        ? "After a few questions the teacher proposes a plan: the ideas to learn, in order."
        : "The teacher is preparing a plan."),
      plan?.proposed ? h("p.muted.small", "Proposed — its steps are under the transcript: approve them or ask for changes.") : null),
    h("section.session-facts",
      h("div.session-actions",
        h("button.small.add-to-graph", { type: "button", onclick: onExtract, title: "Add what this session showed to your knowledge graph" }, "Add to graph"),
        makeButton({ type: "session", id: chat.id, label: chat.title || chat.topic || "" })),
      h("p.muted.small.coverage", ""),
      cost ? h("p.muted.small", `${cost} model cost of this session`) : null),
  ));
}

/** In exchanges, never tokens; "everything" only once something is in and nothing is left. */
export function coverageText(c) {
  if (c.running) return "Adding to your graph…";
  if (c.needs_key) return "Add a key in Settings to put this session into your graph.";
  const left = c.uncovered_exchanges ?? 0;
  if (left === 1) return "One new exchange not yet in your graph.";
  if (left > 1) return left <= 4 ? "A few new exchanges not yet in your graph." : `${left} exchanges not yet in your graph.`;
  return c.covered_exchanges ? "Everything here is in your graph." : "Nothing here for your graph yet.";
}

export function setCoverage(dock, text) {
  const el = dock.querySelector(".coverage");
  if (el) el.textContent = text;
}

/** With no key for the extractor's model, "Add to graph" could only fail: it says why instead. */
export function holdExtraction(dock, reason) {
  const button = dock.querySelector(".add-to-graph");
  if (!button) return;
  button.disabled = Boolean(reason);
  button.title = reason || "Add what this session showed to your knowledge graph";
}

function planTree(plan) {
  const depth = layers(plan);
  const parents = new Map(plan.nodes.map((n) => [n.id, []]));
  for (const e of plan.edges) parents.get(e.to)?.push(e.from);
  const label = new Map(plan.nodes.map((n) => [n.id, n.label]));
  const order = plan.nodes.slice().sort((a, b) => depth.get(a.id) - depth.get(b.id));
  return h("ol.plan-tree", order.map((n) => {
    const status = n.status || "upcoming";
    const after = parents.get(n.id).map((p) => label.get(p)).filter(Boolean);
    return h("li.plan-node", {
      class: `status-${status}`,
      "aria-current": status === "current" ? "step" : null,
    },
    h("span.plan-mark", { "aria-hidden": "true" }, status === "visited" ? "✓" : status === "current" ? "●" : "○"),
    h("span.plan-label", n.label),
    h("span.visually-hidden", ` (${STATUS[status] || status})`),
    after.length ? h("span.plan-after", `after ${after.join(", ")}`) : null);
  }));
}

/** Longest-path layer of each node (roots are 0); the plan is a DAG (server-validated). */
function layers(plan) {
  const depth = new Map(plan.nodes.map((n) => [n.id, 0]));
  for (let pass = 0; pass < plan.nodes.length; pass++) {
    let changed = false;
    for (const e of plan.edges) {
      const d = (depth.get(e.from) ?? 0) + 1;
      if (d > (depth.get(e.to) ?? 0)) {
        depth.set(e.to, d);
        changed = true;
      }
    }
    if (!changed) break;
  }
  return depth;
}
