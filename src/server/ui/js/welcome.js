// First launch: what Studyhall does, and the two ways to start.

import { h } from "./dom.js";
import { go } from "./router.js";
import { modelsReady, state } from "./store.js";
import { openImport, openNewSession } from "./dialogs.js";

export function renderWelcome() {
  const ready = modelsReady(state.settings);
  return h("div.welcome", { "aria-labelledby": "welcome-title" },
    h("h1", { id: "welcome-title" }, "Studyhall"),
    h("p.lede", "Study with a teacher that checks what you understand. Everything you show you know lands in one knowledge graph that grows with every session and every note you bring."),
    h("div.starts",
      h("section.start-card", { "aria-labelledby": "start-session" },
        h("h2", { id: "start-session" }, ready ? "Start a session" : "Add a key and start a session"),
        h("p", "A short check of what you know, a plan you approve, then teaching with quick questions. Use your own API key, or a model on your machine (Ollama, LM Studio)."),
        ready
          ? h("button.primary", { type: "button", onclick: () => openNewSession() }, "Start a session")
          : h("button.primary", { type: "button", onclick: () => go("#/settings?first=1") }, "Add a key")),
      h("section.start-card", { "aria-labelledby": "start-import" },
        h("h2", { id: "start-import" }, "Import your notes (no key needed)"),
        h("p", "Point Studyhall at a Markdown file or an Obsidian vault. Each note becomes a topic on your map, linked as you linked them, and searchable in Ask."),
        h("button", { type: "button", onclick: () => openImport() }, "Import notes")),
    ),
    h("p.muted.small.welcome-foot", "Everything stays on this computer; only your own model provider is ever contacted."),
  );
}
