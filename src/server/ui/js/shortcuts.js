// Keyboard: "/" search the graph, "n" new session, "?" this list (or "I don't know" in a
// quiz), and 1–9 / Enter / ? inside the question dock (handled by the session view first).

import { h, typing } from "./dom.js";
import { currentRoute, go } from "./router.js";
import { openNewSession } from "./dialogs.js";

const KEYS = [
  ["/", "Search the graph (in Sources: find a source; in Ask: the question box)"],
  ["n", "New session"],
  ["1 – 9", "Choose an answer (in a question)"],
  ["Enter", "Submit the answer / approve the plan"],
  ["?", "I don't know (in a question) · this list (elsewhere)"],
  ["← ↑ → ↓", "Move between linked ideas, Enter opens one (graph focused)"],
  ["Shift + arrows", "Pan the graph (graph focused)"],
  ["0", "Whole graph (graph focused)"],
  ["Space", "Show the answer (in a review)"],
  ["1 – 4", "Again / Hard / Good / Easy (in a review)"],
  ["u", "Undo the last grade (in a review)"],
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
  document.addEventListener("keydown", (e) => holdKey(e), true);  // before any view's keys
  document.addEventListener("keydown", (e) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    if (document.querySelector("dialog[open]")) return;  // a dialog owns the keyboard
    const view = getView();
    // "/" goes to a view's box: pressed in that box while it is still empty, it is the shortcut
    // arriving where it leads, not the first character of a question ("TCP/IP" still types).
    if (e.key === "/" && e.target.dataset?.slashTarget && e.target.value === "") {
      e.preventDefault();
      return;
    }
    if (typing(e.target)) return;
    if (view?.handleKey?.(e)) {
      e.preventDefault();
      return;
    }
    if (e.key === "/") {
      e.preventDefault();
      if (view?.focusSearch) view.focusSearch();
      else searchOnceMounted(getView);
    } else if (e.key === "n") {
      e.preventDefault();
      openNewSession();
    } else if (e.key === "?") {
      e.preventDefault();
      showHelp();
    }
  });
}

// --- "/" before the search box exists --------------------------------------------------------
// Right after navigating to Home the graph is still loading and its search box does not exist
// yet (or the view on screen has none). The keys typed from "/" on are held here and handed to
// the search box once Home has mounted, so a quick "/ query" lands whole.

let held = null;  // { text } while a "/" waits for Home's search box
const HOLD_MS = 20_000;  // a mount that never finishes must not keep the keyboard

function searchOnceMounted(getView) {
  const onHome = currentRoute() === "/";
  if (held || (onHome && getView())) return;  // Home is up with no search box: an empty graph
  const hold = { text: "" };
  held = hold;
  const release = () => {
    document.removeEventListener("studyhall:route", mounted);
    clearTimeout(timer);
    if (held === hold) held = null;
  };
  const mounted = () => {
    if (currentRoute() !== "/" && homeAsked()) return;  // Home's render is still queued
    const live = held === hold;
    release();
    const view = getView();
    if (!live || currentRoute() !== "/" || !view?.focusSearch) return;  // went elsewhere
    view.focusSearch();
    const box = document.activeElement;
    if (hold.text && typing(box)) {
      box.value = hold.text;
      box.dispatchEvent(new Event("input", { bubbles: true }));
    }
  };
  const timer = setTimeout(release, HOLD_MS);
  document.addEventListener("studyhall:route", mounted);
  if (!onHome) go("#/");  // the graph's search lives on Home
}

const homeAsked = () => (location.hash || "#/").split("?")[0] === "#/";

function holdKey(e) {
  if (!held) return;
  if (e.key === "Escape" || typing(e.target) || e.ctrlKey || e.metaKey || e.altKey) {
    held = null;  // the learner moved on
    return;
  }
  if (e.key === "Backspace") held.text = held.text.slice(0, -1);
  else if (e.key.length === 1) held.text += e.key;
  else if (e.key !== "Enter") return;  // arrows, Tab, Shift…: not text
  e.preventDefault();
  e.stopImmediatePropagation();
}
