// Keyboard: "/" search the graph, "n" new session, "?" this list (or "I don't know" in a
// quiz), and 1–9 / Enter / ? inside the question dock (handled by the session view first).

import { h, typing } from "./dom.js";
import { go } from "./router.js";
import { openNewSession } from "./dialogs.js";

const KEYS = [
  ["/", "Search the graph"],
  ["n", "New session"],
  ["1 – 9", "Choose an answer (in a question)"],
  ["Enter", "Submit the answer / approve the plan"],
  ["?", "I don't know (in a question) · this list (elsewhere)"],
  ["0", "Whole graph (graph focused)"],
  ["Space", "Show the answer (in a review)"],
  ["1 – 4", "Again / Hard / Good / Easy (in a review)"],
  ["Esc", "Close a dialog or panel"],
];

export function showHelp() {
  const el = h("dialog.modal", { "aria-label": "Keyboard shortcuts" },
    h("div.dialog-body", h("h2", "Keyboard shortcuts"),
      h("dl.shortcut-list", KEYS.map(([k, what]) => [h("dt", h("kbd", k)), h("dd", what)])),
      h("div.dialog-actions", h("button.primary", { type: "button", onclick: () => el.close() }, "Close"))));
  el.addEventListener("close", () => el.remove());
  document.body.append(el);
  el.showModal();
}

export function bindShortcuts(getView) {
  document.addEventListener("keydown", (e) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    if (document.querySelector("dialog[open]")) return;  // a dialog owns the keyboard
    const view = getView();
    if (typing(e.target)) return;
    if (view?.handleKey?.(e)) {
      e.preventDefault();
      return;
    }
    if (e.key === "/") {
      e.preventDefault();
      if (view?.focusSearch) view.focusSearch();
      else go("#/?search=1");
    } else if (e.key === "n") {
      e.preventDefault();
      openNewSession();
    } else if (e.key === "?") {
      e.preventDefault();
      showHelp();
    }
  });
}
