// Settings → What your models can do: per model on this computer or your network, whether it
// calls tools, takes structured JSON, and how much it can read at once (GET/POST
// /api/settings/capabilities). A model that can't call tools still quizzes you: the questions
// are written as JSON instead. Hosted providers are not checked.

import { api } from "./api.js";
import { h, replace } from "./dom.js";

const YES_NO = (value, yes, no) => (value === true ? yes : value === false ? no : "not known yet");

function tokens(n) {
  if (!n) return "not known yet";
  return n >= 1024 ? `${Math.round(n / 1024)}k tokens` : `${n} tokens`;
}

function row(server) {
  const where = server.api_base ? ` at ${server.api_base}` : "";
  const roles = server.roles.length === 1 ? "1 role" : `${server.roles.length} roles`;
  return h("li.capability",
    h("p", h("strong", server.model), h("span.muted.small", `${where} · used by ${roles}`)),
    h("p.small", `Calls tools: ${YES_NO(server.tools, "yes", "no")} · Structured JSON: ` +
      `${YES_NO(server.json_schema, "yes", "no")} · Context: ${tokens(server.context_tokens)}`),
    server.note ? h("p.note.small", server.note) : null);
}

export function capabilitiesSection() {
  const list = h("ul.capabilities", { "aria-live": "polite" }, h("li.muted.small", "Looking…"));
  const button = h("button", { type: "button" }, "Check again");
  async function show(check) {
    button.disabled = true;
    if (check) replace(list, h("li.muted.small", "Asking each model server (a model on this computer may first need to load)…"));
    try {
      const { servers } = check ? await api.post("/api/settings/capabilities", {})
        : await api.get("/api/settings/capabilities");
      const near = servers.filter((s) => s.near);
      replace(list, near.length ? near.map(row)
        : h("li.muted.small", "Your models are hosted: they call tools and write JSON, so there is nothing to check."));
    } catch (err) {
      replace(list, h("li.inline-error", `Could not check: ${err.message}`));
    } finally {
      button.disabled = false;
    }
  }
  button.addEventListener("click", () => show(true));
  show(false);
  return h("section.settings-section", { "aria-labelledby": "capabilities-title" },
    h("h2", { id: "capabilities-title" }, "What your models can do"),
    h("p.small.muted", "Checked once per model and server, and again when you change them."),
    list, button);
}
