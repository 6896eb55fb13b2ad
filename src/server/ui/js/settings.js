// Settings: the provider step first (settings-provider.js), API keys per provider (saved to the secret store, shown masked — the page never
// holds a saved key), the model and effort per role, a local server's address, a connection
// test with a plain answer, privacy (scrubbing for a local server), and where the data lives.

import { api } from "./api.js";
import { h, replace } from "./dom.js";
import { refreshSettings, state } from "./store.js";
import { toast } from "./toast.js";
import { reviewSection } from "./settings-review.js";
import { providerSection } from "./settings-provider.js";
import { capabilitiesSection } from "./settings-capabilities.js";

const ROLE_NAMES = {
  prober: "Prober — finds your level", teacher: "Teacher", researcher: "Researcher",
  demo_builder: "Demo builder", visual_maker: "Diagram maker", extractor: "Extractor — builds the graph",
  auditor: "Auditor — checks the extractor", labeler: "Labeler — names sessions and clusters",
  answerer: "Answerer — questions about your notes", reranker: "Reranker",
  rewriter: "Rewriter — makes follow-up questions searchable",
  notes_writer: "Notes writer", flashcards_writer: "Flashcards writer", study_planner: "Study planner", transcriber: "Transcriber",
};

export async function mountSettings({ main, dock }, params, query) {
  document.body.dataset.view = "settings";
  const page = h("section.settings", { "aria-labelledby": "settings-title" });
  replace(main, h("div.settings-scroll", page));
  replace(dock, h("div.dock-section", h("h2.dock-title", "About keys"),
    h("p.muted.small", "Keys are stored in your system keyring when there is one, otherwise in a file only you can read in the data folder. They are never shown again, logged, or sent anywhere but to their provider."),
    h("p.muted.small", "A server on this computer or your network (Ollama, LM Studio, llama.cpp) needs no key: choose it under “Where your models run” and type the name of the model it serves.")));

  async function draw() {
    const s = state.settings || await refreshSettings();
    if (!s) {
      replace(page, h("p.inline-error", "Could not load the settings."));
      return;
    }
    replace(page,
      h("h1", { id: "settings-title" }, "Settings"),
      query.get("first") ? h("p.lede.small", "Choose where your models run and paste its key (one is enough), then start a session.") : null,
      s.scripted ? h("p.note.small", "Scripted models are on (STUDYHALL_SCRIPT): every role answers from the script, no key is used.") : null,
      // "Provider + key, done" first: choose the provider (its key in the same step), test it.
      providerSection(s, draw), keysSection(s, draw), testSection(s), capabilitiesSection(),
      h("details.settings-advanced", { open: query.get("advanced") ? true : null },
        h("summary", "Advanced: a model or server per role, timeouts"),
        modelsSection(s, draw), timeoutsSection(s, draw)),
      privacySection(s, draw),
      reviewSection(s, draw),
      h("section.settings-section", h("h2", "Data"),
        h("p.small", "Everything Studyhall keeps — sessions, the graph, imported notes' index — lives in:"),
        h("p", h("code.data-dir", s.data_dir))));
  }
  await draw();
  return { unmount() { document.body.dataset.view = ""; } };
}

const OTHER_SERVER = "other-server";

function keysSection(s, redraw) {
  // A key belongs to a provider, or to a server address (a local server with auth, a hosted
  // OpenAI-compatible provider reached by address): the roles' servers are offered by name.
  const servers = s.key_servers || [];
  const provider = h("select", { id: "key-provider", "aria-label": "Provider or server" },
    [...new Set([...s.needed_keys, ...s.providers, ...servers])].map((p) => h("option", { value: p }, p)),
    h("option", { value: OTHER_SERVER }, "Another server address…"));
  const address = h("input", { id: "key-server", type: "url", spellcheck: "false", hidden: true,
    placeholder: "http://127.0.0.1:1234/v1", "aria-label": "Server address" });
  provider.addEventListener("change", () => {
    address.hidden = provider.value !== OTHER_SERVER;
    if (!address.hidden) address.focus();
  });
  const value = h("input", { id: "key-value", type: "password", autocomplete: "off", spellcheck: "false",
    placeholder: "Paste the key", "aria-label": "API key" });
  const error = h("p.form-error", { role: "alert", hidden: true });
  const form = h("form.key-form", h("label", { for: "key-provider" }, "Provider or server"), provider,
    address, h("label", { for: "key-value" }, "Key"), value,
    h("button.primary", { type: "submit" }, "Save key"));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const key = value.value.trim();
    value.value = "";  // the page keeps no copy, whatever happens next
    const name = provider.value === OTHER_SERVER ? address.value.trim() : provider.value;
    if (!key || !name) return;
    try {
      state.settings = await api.put("/api/settings/keys", { name, value: key });
      toast(`Key for ${name} saved.`);
      redraw();
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
    }
  });
  const saved = s.keys.length ? h("ul.key-list", s.keys.map((k) => h("li",
    h("span.key-name", k.name), h("code.key-mask", k.masked),
    h("button.small", { type: "button", "aria-label": `Remove the ${k.name} key`, onclick: async () => {
      state.settings = await api.del("/api/settings/keys", { name: k.name });
      redraw();
    } }, "Remove")))) : h("p.muted.small", "No keys saved yet.");
  return h("section.settings-section", { "aria-labelledby": "keys-title" },
    h("h2", { id: "keys-title" }, "API keys"),
    s.needed_keys.length && !s.scripted ? h("p.note.small",
      `Your models need a key for ${providerNames(s, s.needed_keys)}: choose one provider above, or save a key below.`) : null,
    saved,
    s.env_keys.length ? h("p.muted.small", `Also from the environment: ${s.env_keys.join(", ")}.`) : null,
    form, error);
}

/** Provider ids as the learner reads them: "Anthropic and OpenAI", not "anthropic, openai". */
export function providerNames(s, ids) {
  const label = Object.fromEntries((s.provider_choices || []).map((c) => [c.id, c.label]));
  const names = ids.map((id) => label[id] || id);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : names[0];
}

function modelsSection(s, redraw) {
  const rows = s.roles.map((r) => {
    // Transcription off (the provider has no speech-to-text model): the field stays empty, and
    // typing a model into it turns transcription back on.
    const off = r.role === "transcriber" && s.transcription_off;
    const model = h("input", { type: "text", value: off ? "" : r.model, "aria-label": `Model for ${r.role}`, spellcheck: "false", name: `model-${r.role}`,
      "aria-describedby": off ? "transcription-off" : null });
    const effort = h("select", { "aria-label": `Effort for ${r.role}`, name: `effort-${r.role}` },
      // Said in each option too: at this width the table's column names are not shown.
      h("option", { value: "" }, "default effort"),
      s.efforts.map((e) => h("option", { value: e, selected: r.effort === e }, `${e} effort`)));
    const base = h("input", { type: "url", value: r.api_base || "", placeholder: "Server address (optional)",
      "aria-label": `Server address for ${r.role}`, spellcheck: "false", name: `base-${r.role}` });
    return { role: r.role, el: h("tr", h("th", { scope: "row" }, ROLE_NAMES[r.role] || r.role),
      h("td", model), h("td", effort), h("td", base)), model, effort, base };
  });
  const error = h("p.form-error", { role: "alert", hidden: true });
  const form = h("form.models-form",
    h("table.models", h("thead", h("tr", h("th", { scope: "col" }, "Role"), h("th", { scope: "col" }, "Model"),
      h("th", { scope: "col" }, "Effort"), h("th", { scope: "col" }, "Server address"))),
    h("tbody", rows.map((r) => r.el))),
    error, h("div.form-actions", h("button.primary", { type: "submit" }, "Save models")));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const kept = rows.filter((r) => !(r.role === "transcriber" && s.transcription_off && !r.model.value.trim()));
    const models = Object.fromEntries(kept.map((r) => [r.role, {
      model: r.model.value.trim(), effort: r.effort.value || null, api_base: r.base.value.trim() || null }]));
    try {
      state.settings = await api.put("/api/settings/models", { models });
      toast("Models saved.");
      redraw();
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
    }
  });
  return h("section.settings-section", { "aria-labelledby": "models-title" },
    h("h2", { id: "models-title" }, "Models"),
    h("p.muted.small", "A model id with its provider first, e.g. openai/gpt-4.1-mini, anthropic/claude-sonnet-4-5, openrouter/…, ollama/llama3.2."),
    s.transcription_off ? h("p.note.small", { id: "transcription-off" }, s.transcription_off) : null,
    form);
}

function privacySection(s, redraw) {
  const box = h("input", { id: "scrub-local", type: "checkbox", checked: !!(s.privacy && s.privacy.scrub_local) });
  const error = h("p.form-error", { role: "alert", hidden: true });
  box.addEventListener("change", async () => {
    try {
      state.settings = await api.put("/api/settings/privacy", { scrub_local: box.checked });
      toast(box.checked ? "Personal data is scrubbed for the local server too." : "A local server now gets your text as written.");
      redraw();
    } catch (err) {
      box.checked = !box.checked;
      error.textContent = err.message;
      error.hidden = false;
    }
  });
  const local = (s.privacy && s.privacy.local_roles || []).length;
  return h("section.settings-section", { "aria-labelledby": "privacy-title" },
    h("h2", { id: "privacy-title" }, "Privacy"),
    h("p.small", "Before anything reaches a hosted model, e-mail addresses, phone numbers, card numbers, IBANs, SSNs, IP addresses, street addresses and names are replaced by placeholders such as <EMAIL_1>; you still read your own text in the answers. This is always on for hosted providers."),
    h("p.small", "To send one message exactly as you wrote it, tick “Send as written” under the message box before sending."),
    h("label.checkbox", { for: "scrub-local" }, box, " Scrub personal data for a model on this computer too"),
    h("p.muted.small", local ? `${local} role(s) use a model on this computer.` : "No role uses a model on this computer now."),
    error);
}

function testSection(s) {
  const role = h("select", { id: "test-role", "aria-label": "Role to test" },
    s.roles.map((r) => h("option", { value: r.role, selected: r.role === "teacher" }, ROLE_NAMES[r.role] || r.role)));
  const result = h("p.test-result", { role: "status", "aria-live": "polite" });
  const button = h("button", { type: "button" }, "Test connection");
  button.addEventListener("click", async () => {
    button.disabled = true;
    result.className = "test-result";
    result.textContent = "Calling the model…";
    // A cold local model may take minutes to answer: say how long we have waited, and why.
    const started = Date.now();
    const ticker = setInterval(() => {
      const waited = Math.round((Date.now() - started) / 1000);
      result.textContent = `Calling the model… ${waited} s` +
        (waited >= 10 ? " (a model on this computer may take a few minutes to load the first time)" : "");
    }, 1000);
    try {
      const r = await api.post("/api/settings/test", { role: role.value });
      result.classList.add(r.ok ? "ok" : "bad");
      result.textContent = r.ok ? `✓ ${r.model} answered in ${(r.ms / 1000).toFixed(1)} s.` : `✗ ${r.message}`;
    } catch (err) {
      result.classList.add("bad");
      result.textContent = `✗ ${err.message}`;
    } finally {
      clearInterval(ticker);
      button.disabled = false;
    }
  });
  return h("section.settings-section", { "aria-labelledby": "test-title" },
    h("h2", { id: "test-title" }, "Test connection"),
    h("div.test-row", h("label", { for: "test-role" }, "Role"), role, button), result);
}

function timeoutsSection(s, redraw) {
  const t = s.timeouts || { hosted_s: 180, local_s: 900 };
  const hosted = h("input", { id: "timeout-hosted", type: "number", min: "1", max: "3600", step: "1", value: String(t.hosted_s) });
  const local = h("input", { id: "timeout-local", type: "number", min: "1", max: "7200", step: "1", value: String(t.local_s) });
  const error = h("p.form-error", { role: "alert", hidden: true });
  const form = h("form.timeouts-form",
    h("label", { for: "timeout-hosted" }, "Hosted provider (seconds)"), hosted,
    h("label", { for: "timeout-local" }, "Server on this computer or network (seconds)"), local,
    h("button", { type: "submit" }, "Save timeouts"));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      state.settings = await api.put("/api/settings/timeouts", { hosted_s: Number(hosted.value), local_s: Number(local.value) });
      toast("Timeouts saved.");
      redraw();
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
    }
  });
  return h("section.settings-section", { "aria-labelledby": "timeouts-title" },
    h("h2", { id: "timeouts-title" }, "Timeouts"),
    h("p.muted.small", "How long a model may stay silent before Studyhall gives up. A model on your own computer can need minutes to load the first time; that is not an error."),
    form, error);
}
