// The local graph's depth control (floating, bottom right beside the zoom buttons): how many
// links from the selection its local graph reaches, 1–3. Shown only while something is selected.

import { h } from "../dom.js";

export function depthControl(getView) {
  const buttons = [1, 2, 3].map((d) => h("button.depth-step", {
    type: "button", "aria-pressed": "false", title: `Show ${d === 1 ? "its direct links" : `${d} links away`}`,
    onclick: () => getView()?.setDepth(d),
  }, String(d)));
  const root = h("div.depth-control.graph-float", { role: "group", "aria-label": "Local graph depth", hidden: true },
    h("span.depth-label", "Depth"), buttons);
  /** Show the view's depth (hidden with nothing selected). */
  root.sync = () => {
    const view = getView();
    root.hidden = !view?.focus;
    buttons.forEach((b, i) => b.setAttribute("aria-pressed", String(view?.depth === i + 1)));
  };
  return root;
}
