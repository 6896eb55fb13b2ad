// Plan approval in the question dock: the proposed plan (steps in order, with what each builds
// on), "Approve plan" (Enter) or "Ask for changes" with a comment the teacher revises from.

import { h } from "./dom.js";

export function planApproval(pending, answer) {
  const plan = pending.plan;
  const title = pending.input?.title || "Plan";
  const comment = h("textarea.answer-input", { rows: 2, "aria-label": "What should change?",
    placeholder: "What should change? e.g. add trees, skip the basics" });
  const changes = h("div.plan-changes", { hidden: true }, comment,
    h("div.dock-actions", h("button", { type: "button", "data-submit": "1", onclick: () => {
      const text = comment.value.trim();
      if (text) answer({ approve: false, comment: text });
      else comment.focus();
    } }, "Send changes")));
  return h("div.dock-inner", { role: "region", "aria-label": "Plan approval" },
    h("p.dock-kicker", "Proposed plan"), h("h3.plan-title", title),
    plan ? h("ol.plan-steps", plan.nodes.map((n) => h("li", n.label,
      prereqs(plan, n.id) ? h("span.muted.small", ` — after ${prereqs(plan, n.id)}`) : null))) : null,
    h("p.dock-error.form-error", { role: "alert", hidden: true }),
    h("div.dock-actions",
      h("button", { type: "button", onclick: () => {
        changes.hidden = false;
        comment.focus();
      } }, "Ask for changes"),
      h("button.primary", { type: "button", "data-submit": "1", onclick: () => answer({ approve: true }) },
        "Approve plan")),
    changes);
}

function prereqs(plan, id) {
  const label = new Map(plan.nodes.map((n) => [n.id, n.label]));
  return plan.edges.filter((e) => e.to === id).map((e) => label.get(e.from)).filter(Boolean).join(", ");
}
