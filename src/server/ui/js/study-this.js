// "Study this" on a note or topic (the map's dock, the reader): a session that studies it —
// POST /api/chats {node_id, topic}; its tutor teaches and quizzes from the note's sections. With
// no model key a session cannot run, so the button opens the note's Quiz me instead and says why
// in one line (as Today's "learn next" does).

import { api } from "./api.js";
import { h } from "./dom.js";
import { go } from "./router.js";
import { modelsReady, refreshChats } from "./store.js";
import { toast } from "./toast.js";

export const NO_KEY_LINE = "A study session needs a model, and none is set up yet (Settings → Where your models run). Meanwhile, Quiz me on this note checks what you know.";
export const NO_MODEL_WHY = "no-model";  // ?why= on the note's address: its Quiz me says the line

/**
 * The button. `nodeId()` gives the node to study (may be async: the reader looks its note's
 * topic up). Without a model: `noteId` opens that note's Quiz me, which says why (quiz-me.js);
 * `quizHere()` quizzes in place (the reader) with the line under the button's row; `onNoKey(line)`
 * puts the line elsewhere.
 */
export function studyButton({ nodeId, topic, noteId = null, quizHere = null, onNoKey = null, primary = false }) {
  const button = h(primary ? "button.primary.study-this" : "button.study-this", {
    type: "button",
    title: "Start a session that teaches and quizzes you from this note",
    onclick: () => start(),
  }, "Study this");

  async function start() {
    if (!modelsReady()) {
      if (noteId && !quizHere) return go(`#/sources/${encodeURIComponent(noteId)}?quiz=1&why=${NO_MODEL_WHY}`);
      say(quizHere ? NO_KEY_LINE
        : "A study session needs a model, and none is set up yet: add one in Settings → Where your models run.");
      if (quizHere) quizHere();
      return;
    }
    button.disabled = true;
    try {
      const node = await nodeId();
      if (!node) throw new Error("this note is not on your map yet; import it again, then try once more");
      const { id } = await api.post("/api/chats", { node_id: node, ...(topic ? { topic } : {}) });
      await refreshChats();
      go(`#/session/${id}?start=1`);
    } catch (error) {
      button.disabled = false;
      toast(`The session did not start: ${error.message}`, { kind: "error" });
    }
  }
  /** The line why, once, under the row the button sits in (never over what it opens). */
  function say(line) {
    if (onNoKey) return onNoKey(line);
    const row = button.parentElement || button;
    if (row.nextElementSibling?.classList.contains("study-why") || document.querySelector(".quiz-why")) return;
    row.after(h("p.note.small.study-why", { role: "status" }, line));
  }
  return button;
}

/** The node a note stands for on the map (one node per note): found by its title, confirmed by
 *  its sources; null when the map has none (the note is not imported into the graph). */
export async function noteNode(sourceId, title) {
  const found = await api.get(`/api/graph/search?q=${encodeURIComponent(title)}&limit=10`);
  const named = (found.results || []).filter((r) => r.text.trim().toLowerCase() === title.trim().toLowerCase());
  for (const r of named) {
    const detail = await api.get(`/api/graph/nodes/${encodeURIComponent(r.id)}`);
    if ((detail.node?.sources || []).includes(sourceId)) return r.id;
  }
  return null;
}
