// Settings → the provider step: choose where the models run, in one step. A hosted provider
// takes its key in the same form (PUT /api/settings/keys, then PUT /api/settings/provider); a
// server on this computer or the network takes its address and the model it serves. The server
// checks both and says what is missing; Advanced (settings.js) still changes one role.

import { api } from "./api.js";
import { h, replace } from "./dom.js";
import { state } from "./store.js";
import { toast } from "./toast.js";

const LOCAL_HELP = {
  ollama: "The NAME column of ollama list, for example llama3.2 or qwen2.5:7b.",
  lm_studio: "The model's identifier in LM Studio's Developer tab.",
  llamacpp: "Any name: llama-server answers with the model it was started with.",
};

function hasKey(s, id) {
  const env = `${id.toUpperCase()}_API_KEY`;
  return s.keys.some((k) => k.name === id) || (s.env_keys || []).includes(env);
}

function plan(choice) {
  if (choice.local) {
    return h("p.provider-plan.muted.small", "Every role runs the model you name. No key, and nothing leaves your computer or network. ",
      choice.no_transcriber);
  }
  return h("p.provider-plan.muted.small",
    "Teaching and building: ", h("code", choice.strong), " · the graph, checks and labels: ", h("code", choice.cheap),
    " · ", choice.transcriber ? ["transcription: ", h("code", choice.transcriber)] : choice.no_transcriber);
}

export function providerSection(s, redraw) {
  const choices = s.provider_choices || [];
  if (!choices.length) return null;
  const byId = Object.fromEntries(choices.map((c) => [c.id, c]));
  // The provider in use; else one whose key is already saved (the learner who pasted an OpenAI
  // key sees OpenAI); else one a model still needs a key for.
  const guess = s.provider || (choices.find((c) => !c.local && hasKey(s, c.id)) || {}).id ||
    s.needed_keys.find((k) => byId[k]) || choices[0].id;
  const group = (label, list) => h("optgroup", { label },
    list.map((c) => h("option", { value: c.id, selected: c.id === guess }, c.label)));
  const select = h("select", { id: "provider-choice" },
    group("Hosted — your key", choices.filter((c) => !c.local)),
    group("On this computer or network — no key", choices.filter((c) => c.local)));
  const fields = h("div.provider-fields");
  const error = h("p.form-error", { role: "alert", hidden: true });
  const button = h("button.primary", { type: "submit" });
  let inputs = {};

  function drawFields() {
    const choice = byId[select.value];
    error.hidden = true;
    button.textContent = `Use ${choice.label}`;
    if (choice.local) {
      inputs = {
        base: h("input", { id: "provider-base", type: "url", spellcheck: "false", value: choice.address }),
        model: h("input", { id: "provider-model", type: "text", spellcheck: "false", autocomplete: "off",
          "aria-describedby": "provider-model-help" }),
      };
      replace(fields,
        h("label", { for: "provider-base" }, "Server address"), inputs.base,
        h("label", { for: "provider-model" }, "Model name"),
        h("div", inputs.model, h("p.muted.small", { id: "provider-model-help" }, LOCAL_HELP[choice.id] || "")),
        plan(choice));
      return;
    }
    const saved = hasKey(s, choice.id);
    inputs = { key: h("input", { id: "provider-key", type: "password", autocomplete: "off", spellcheck: "false",
      "aria-describedby": "provider-key-help" }) };
    replace(fields,
      h("label", { for: "provider-key" }, `${choice.label} key`),
      h("div", inputs.key, h("p.muted.small", { id: "provider-key-help" }, saved
        ? `A key for ${choice.label} is saved; paste another only to replace it.`
        : `From ${choice.key_hint}. One key is enough: with it, every role uses ${choice.label}.`)),
      plan(choice));
  }

  function fail(message) {
    error.textContent = message;
    error.hidden = false;
  }

  select.addEventListener("change", drawFields);
  const form = h("form.provider-form", h("label", { for: "provider-choice" }, "Provider"), select, fields,
    h("div.provider-actions", button));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const choice = byId[select.value];
    const body = { provider: choice.id };
    try {
      if (choice.local) {
        body.model = inputs.model.value.trim();
        body.api_base = inputs.base.value.trim() || null;
      } else {
        const key = inputs.key.value.trim();
        inputs.key.value = "";  // the page keeps no copy, whatever happens next
        if (!key && !hasKey(s, choice.id)) {
          fail(`Paste your ${choice.label} key (from ${choice.key_hint}), or choose a server on this computer.`);
          return;
        }
        if (key) state.settings = await api.put("/api/settings/keys", { name: choice.id, value: key });
      }
      state.settings = await api.put("/api/settings/provider", body);
      toast(`Every role now uses ${choice.label}.`);
      redraw();
    } catch (err) {
      fail(err.message);
    }
  });
  drawFields();
  const current = s.provider && byId[s.provider];
  return h("section.provider-step", { "aria-labelledby": "provider-title" },
    h("h2", { id: "provider-title" }, "Where your models run"),
    h("p.small", current ? `Every role uses ${current.label} now. Choose another to switch them all.`
      : "Choose a provider and every role gets its models in one step. Advanced, below, changes a single role."),
    form, error);
}
