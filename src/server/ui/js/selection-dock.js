// The dock on Home with several ideas selected (Shift/Ctrl/Cmd+click on the map, Shift+Enter in
// search): how many, their names (each flies to its node, each can be taken out), and "Make
// study material from these…" with the selection as the scope. Esc in the dock clears it.

import { h, plural, replace, stateGlyph } from "./dom.js";
import { makeButton } from "./artifacts-make.js";

/**
 * `nodes`: the selected nodes ({id, text, state}) in the order they were picked.
 * `actions`: `show(id)` flies to one, `remove(id)` takes it out, `clear()` clears them all.
 * `keep`: the index of the row whose remove button should keep the keyboard focus (after a
 * removal re-renders the dock), or null.
 */
export function renderSelection(dock, nodes, { show, remove, clear }, keep = null) {
  const scope = { type: "selection", id: null, node_ids: nodes.map((n) => n.id),
    label: plural(nodes.length, "selected idea") };
  const rows = nodes.map((n) => h("li.picked-item", { dataset: { node: n.id } },
    h("button.link-button.picked-name", { type: "button", title: `Show “${n.text}” on the map`,
      onclick: () => show(n.id) }, stateGlyph(n.state, 10), h("span", n.text)),
    h("button.icon-button.picked-remove", { type: "button", title: "Take it out of the selection",
      "aria-label": `Remove “${n.text}” from the selection`, onclick: () => remove(n.id) }, "×")));
  const make = makeButton(scope, { small: false, text: "Make study material from these…" });
  make.classList.add("primary");  // the reason to select several
  const panel = h("section.dock-section.selection-panel", { "aria-label": "Selected ideas" },
    h("h2.dock-title", { tabindex: "-1" }, `${nodes.length} selected`),
    h("ul.picked-list", rows),
    h("p.dock-make", make),
    h("p.muted.small", h("kbd", "Shift"), "+click on the map or ", h("kbd", "Shift"), "+",
      h("kbd", "Enter"), " in search adds or removes one; ", h("kbd", "Esc"), " clears."),
    h("p", h("button.small.clear-selection", { type: "button", onclick: clear }, "Clear selection")));
  panel.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !e.defaultPrevented) {
      e.preventDefault();
      clear();
    }
  });
  replace(dock, panel);
  if (keep !== null) {
    const buttons = panel.querySelectorAll(".picked-remove");
    (buttons[Math.min(keep, buttons.length - 1)] || panel.querySelector(".dock-title")).focus();
  }
}
