// The dock on Home: the selected proposition — its state, its mastery explained and its review
// card ("Review now"), what it builds on, and the evidence trail (which session or note line,
// which quiz, when). With nothing selected: a
// short guide and the graph's totals.

import { api } from "./api.js";
import { formatDate, h, plural, replace, stateBadge, stateGlyph, STATE_LABELS } from "./dom.js";
import { state } from "./store.js";
import { masterySection } from "./node-mastery.js";

let sources = null;  // source id -> imported file path, fetched once

async function sourceNames() {
  if (sources) return sources;
  try {
    const list = await api.get("/api/sources");
    sources = new Map(list.map((s) => [s.id, s.path]));
  } catch {
    sources = new Map();
  }
  return sources;
}

export function forgetSources() {
  sources = null;
}

function chatName(id) {
  const chat = state.chats.find((c) => c.id === id);
  return chat ? (chat.title || chat.topic || "Untitled session") : null;
}

function sourceLink(sourceId, messageId, names) {
  const chat = chatName(sourceId);
  if (chat) {
    const href = `#/session/${encodeURIComponent(sourceId)}${messageId ? `?m=${encodeURIComponent(messageId)}` : ""}`;
    return h("a.source-link", { href }, chat);
  }
  const path = names.get(sourceId);
  if (path) return h("a.source-link.source-note", { href: `#/sources/${encodeURIComponent(sourceId)}`, title: `Open ${path}` }, "Note ", h("code", path));
  return h("span.source-note", sourceId);
}

// A plain download link: the session cookie authenticates the GET; the server names the file.
function ankiExport(scope, title) {
  return h("p.dock-export", h("a.button.export-anki", {
    href: `/api/export/anki?scope=${encodeURIComponent(scope)}`, download: "", title,
  }, "Export to Anki"));
}

export function renderDockHint(dock, data) {
  const counts = {};
  for (const n of data?.nodes || []) counts[n.state] = (counts[n.state] || 0) + 1;
  replace(dock,
    h("div.dock-section.dock-hint",
      h("h2.dock-title", "Your knowledge graph"),
      h("p.muted", "Every proposition you have shown you understand, from sessions and notes. ",
        "Select one to see where it came from."),
      data && data.nodes.length ? h("ul.state-totals",
        Object.keys(STATE_LABELS).map((s) => h("li", stateGlyph(s, 12), h("span", STATE_LABELS[s]),
          h("span.count", String(counts[s] || 0))))) : null,
      data && data.nodes.length ? h("p.muted.small",
        `${plural(data.nodes.length, "proposition")} · ${plural(data.edges.length, "link")} · ${plural(data.clusters.length, "cluster")}`) : null,
      h("p.muted.small", "Drag to pan, scroll to zoom, ", h("kbd", "/"), " to search, ", h("kbd", "0"), " to see it all."),
      data && data.nodes.length ? ankiExport("all",
        "Download the whole graph as an Anki deck (re-importing updates the same cards)") : null,
    ));
}

export async function renderNodePanel(dock, node, data, focus) {
  const names = await sourceNames();
  const byId = new Map((data?.nodes || []).map((n) => [n.id, n]));
  const linked = (id) => {
    const other = byId.get(id);
    if (!other) return null;
    return h("li", h("button.link-button", { type: "button", onclick: () => focus(id) },
      stateGlyph(other.state, 10), h("span", other.text)));
  };
  const before = (data?.edges || []).filter((e) => e.to === node.id).map((e) => linked(e.from));
  const after = (data?.edges || []).filter((e) => e.from === node.id).map((e) => linked(e.to));
  const evidence = (node.evidence || []).slice().sort((a, b) => b.at.localeCompare(a.at));
  const quiz = (node.quiz || []).slice().sort((a, b) => b.at.localeCompare(a.at));
  replace(dock, h("article.dock-section.node-panel", { "aria-label": "Selected proposition" },
    stateBadge(node.state),
    h("h2.node-text", node.text),
    masterySection(node.id),
    node.blocked_by && node.blocked_by.length
      ? h("p.gate", "Harder questions wait on: ",
        node.blocked_by.map((b) => byId.get(b.id)?.text || b.id).join("; "))
      : null,
    before.length ? h("section", h("h3", "Builds on"), h("ul.linked", before)) : null,
    after.length ? h("section", h("h3", "Leads to"), h("ul.linked", after)) : null,
    h("section", h("h3", "Evidence"),
      evidence.length ? h("ol.trail", evidence.map((e) => h("li",
        h("blockquote", e.quote),
        h("p.trail-meta", sourceLink(e.source_id, e.message_id, names), " · ", formatDate(e.at)))))
        : h("p.muted.small", "No evidence recorded.")),
    quiz.length ? h("section", h("h3", "Quiz answers"),
      h("ol.trail", quiz.map((q) => h("li.quiz-event",
        h("span.verdict", { class: `verdict-${q.verdict}` }, verdictText(q.verdict)),
        " · ", sourceLink(q.source_id, null, names), " · ", formatDate(q.at))))) : null,
    (node.observations || []).length ? h("section", h("h3", "Observed"),
      h("ol.trail", node.observations.map((o) => h("li", `${o.level} · `,
        sourceLink(o.source_id, o.message_ids?.[0], names), " · ", formatDate(o.at))))) : null,
    node.cluster
      ? ankiExport(`cluster:${node.cluster}`, "Download this topic's cluster as an Anki deck")
      : ankiExport(`node:${node.id}`, "Download this proposition as an Anki card"),
  ));
}

function verdictText(v) {
  return { "correct": "✓ correct", "miss": "✗ missed", "dont-know": "? didn't know" }[v] || v;
}
