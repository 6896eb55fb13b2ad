// The dock's correctable memory, inside its Mastery section (GET /api/mastery/{id}): the
// misconception patterns on the topic ("You often confuse “A” and “B”: 3 times"), and the
// learner's own word on it — "I know this", "I don't know this", "This is wrong", with an
// optional note — each listed with its weight and an Undo (POST / DELETE
// /api/graph/nodes/{id}/assertions). Notes are shown as text, never as Markdown or HTML.

import { api } from "./api.js";
import { h } from "./dom.js";
import { toast } from "./toast.js";

const NOTE_CHARS = 500;
const CLAIMS = [
  { kind: "know", label: "I know this", said: "You said you know this" },
  { kind: "dont_know", label: "I don't know this", said: "You said you don't know this" },
  { kind: "wrong", label: "This is wrong", said: "You said this is wrong",
    title: "What the app recorded about you here is not right: what it read from your sessions until now stops counting (your answers and reviews still count)" },
];
const SAID = Object.fromEntries(CLAIMS.map((c) => [c.kind, c.said]));

const day = (iso) => new Date(iso).toLocaleDateString(undefined, { month: "short", day: "numeric" });

/** The live patterns on the topic, one line each (none: nothing shown). */
export function misconceptionLines(m) {
  const patterns = m.misconceptions || [];
  if (!patterns.length) return null;
  return h("div.dock-misconceptions", { role: "note" }, patterns.map((p) => h("p.misconception-line",
    h("span.misconception-mark", { "aria-hidden": "true" }, "!"),
    h("span", `${p.line}, last on ${day(p.last_at)}. `,
      h("span.muted", "It clears once you answer it right again and the score is solid.")))));
}

/** "Correct this": the three claims, an optional note, and what was said so far with Undo.
 *  `done()` re-reads the mastery once the server has it. */
export function correctionControls(nodeId, m, done) {
  const path = `/api/graph/nodes/${encodeURIComponent(nodeId)}/assertions`;
  const note = h("input.assert-note", { type: "text", maxlength: String(NOTE_CHARS),
    placeholder: "Add a note (optional)", "aria-label": "A note with what you say (optional)" });
  const buttons = CLAIMS.map((c) => h("button.assert-claim", { type: "button", dataset: { kind: c.kind },
    title: c.title || null, onclick: () => send(c.kind) }, c.label));
  async function send(kind) {
    buttons.forEach((b) => { b.disabled = true; });
    try {
      const out = await api.post(path, { kind, note: note.value });
      toast("Noted: it counts in this score now.", {
        action: ["Undo", () => api.del(`${path}/${encodeURIComponent(out.assertion_id)}`).then(done,
          (error) => toast(`Not undone: ${error.message}`, { kind: "error" }))],
      });
      done();
    } catch (error) {
      buttons.forEach((b) => { b.disabled = false; });
      toast(`Not recorded: ${error.message}`, { kind: "error" });
    }
  }
  async function undo(id, button) {
    button.disabled = true;
    try {
      await api.del(`${path}/${encodeURIComponent(id)}`);
      done();
    } catch (error) {
      button.disabled = false;
      toast(`Not undone: ${error.message}`, { kind: "error" });
    }
  }
  const said = m.assertions || [];
  return h("div.dock-correct", { "aria-label": "Correct what the app knows about you" },
    h("p.steps-title.small", "Is this right about you? Say so — your word counts, and you can undo it."),
    h("div.assert-claims", buttons),
    note,
    said.length ? h("ul.assertions", said.map((a) => h("li.assertion",
      h("span", `${SAID[a.claim] || a.claim} · ${day(a.at)}`,
        a.weight !== 1 ? h("span.muted", ` · weight ×${a.weight}`) : null),
      a.note ? h("span.assertion-note", a.note) : null,
      h("button.link-button.assertion-undo", { type: "button", onclick: (e) => undo(a.id, e.currentTarget) }, "Undo"),
    ))) : null);
}
