// The dock on Home: the selected topic — its state, its mastery explained and its review card
// ("Review now"), what it links with (dock-links.js), its outline and the evidence trail grouped
// per source, rendered as the reader renders a note (dock-evidence.js, dock-text.js), which quiz,
// when. With nothing selected: a short guide and the graph's totals.

import { api } from "./api.js";
import { formatDate, h, plural, replace, SOURCE_KINDS, stateBadge, stateGlyph, STATE_LABELS } from "./dom.js";
import { state } from "./store.js";
import { masterySection } from "./node-mastery.js";
import { makeButton } from "./artifacts-make.js";
import { evidenceSection, sectionsOutline } from "./dock-evidence.js";
import { linksSection } from "./dock-links.js";
import { noteResolver } from "./dock-text.js";
import { studyButton } from "./study-this.js";

let sources = null;  // source id -> imported file path, fetched once
let resolver = null;  // a wikilink's target -> the source id of the note it names
let kinds = new Map();  // source id -> its kind: "Note notes/Krebs.md", "PDF Chapter 5.pdf"

async function sourceNames() {
  if (sources) return sources;
  let list = [];
  try {
    list = await api.get("/api/sources");
  } catch { /* no paths: notes are named by id, wikilinks stay text */ }
  sources = new Map(list.map((s) => [s.id, s.path]));
  kinds = new Map(list.map((s) => [s.id, s.kind]));
  resolver = noteResolver(list);
  return sources;
}

export function forgetSources() {
  sources = null;
  resolver = null;
  kinds = new Map();
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
  if (path) return h("a.source-link.source-note", { href: `#/sources/${encodeURIComponent(sourceId)}`, title: `Open ${path}` }, `${SOURCE_KINDS[kinds.get(sourceId)] || "Source"} `, h("code", path));
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
  // The topics' states, as the map and its legend show them (an idea's counts in its topic's).
  for (const n of data?.nodes || []) if ((n.topic ?? -1) === -1) counts[n.state] = (counts[n.state] || 0) + 1;
  replace(dock,
    h("div.dock-section.dock-hint",
      h("h2.dock-title", "Your knowledge graph"),
      h("p.muted", "Your notes, lectures and sessions, one topic each, with what you have shown ",
        "you understand. Select one to see where it came from."),
      data && data.nodes.length ? h("ul.state-totals",
        Object.keys(STATE_LABELS).map((s) => h("li", stateGlyph(s, 12), h("span", STATE_LABELS[s]),
          h("span.count", String(counts[s] || 0))))) : null,
      data && data.nodes.length ? h("p.muted.small",
        overviewLine(data)) : null,
      h("p.muted.small", "Drag to pan, scroll to zoom, ", h("kbd", "/"), " to search, ", h("kbd", "0"), " to see it all."),
      data && data.nodes.length ? h("p.muted.small", h("kbd", "Shift"), "+click several (or ",
        h("kbd", "Shift"), "+", h("kbd", "Enter"), " in search) to make study material from them.") : null,
      data && data.nodes.length ? ankiExport("all",
        "Download the whole graph as an Anki deck (re-importing updates the same cards)") : null,
      data && data.nodes.length ? h("p.dock-make", makeButton({ type: "graph", id: null })) : null,
    ));
}

// Home's map holds only what paints the graph: the selected node's text, evidence and links
// (what it builds on and leads to) are read now, in one request (GET /api/graph/nodes/{id}). A
// newer selection wins over a slower older read.
let shown = 0;

export async function showNode(dock, id, focus, { onGone, sourcesOf, topicOf } = {}) {
  const seq = ++shown;
  let detail;
  try {
    detail = await api.get(`/api/graph/nodes/${encodeURIComponent(id)}`);
  } catch (error) {
    if (seq !== shown) return;
    replace(dock, h("div.dock-section.node-panel", h("p.form-error", error.message)));
    if (error.status === 404) onGone?.();  // merged away since the map was read
    return;
  }
  if (seq !== shown) return;
  await renderNodePanel(dock, detail.node,
    { nodes: detail.neighbours, edges: detail.edges, clusters: detail.clusters, links: detail.links,
      sections: detail.sections, from_session: detail.from_session, mastery_rollup: detail.mastery_rollup },
    focus, sourcesOf, topicOf?.(id));
}

/** Where a session finding came from: the session it was learned in, one click away. */
function fromSession(session) {
  if (!session) return null;
  return h("p.muted.small.node-origin", "From your session ",
    h("a", { href: `#/session/${encodeURIComponent(session.id)}` }, `«${session.title}»`));
}

/** An idea's topic, one click away: the map draws the idea as that topic's satellite. */
function ideaOf(topic, focus) {
  if (!topic) return null;
  return h("p.small.node-topic", "An idea in ",
    h("button.link-button", { type: "button", title: "Show the topic in the graph", onclick: () => focus(topic.id) },
      topic.text), ".");
}

/** "36 topics · 80 ideas · 141 links · 10 regions": ideas once a model or a session found some,
 *  links between topics (an idea's tie to its topic is none), regions once the upkeep has drawn
 *  them (not mid-import). */
function overviewLine(data) {
  const regions = new Set(data.clusters.map((c) => c.region || c.id)).size;
  const idea = data.nodes.map((n) => (n.topic ?? -1) !== -1);
  const ideas = idea.filter(Boolean).length;
  let links = data.edgeCount ?? data.edges.length / 2;
  if (ideas) {
    links = 0;
    for (let e = 0; e < data.edges.length; e += 2) if (!idea[data.edges[e]] && !idea[data.edges[e + 1]]) links += 1;
  }
  const parts = [plural(data.nodes.length - ideas, "topic")];
  if (ideas) parts.push(plural(ideas, "idea"));
  parts.push(plural(links, "link"));
  if (regions) parts.push(plural(regions, "region"));
  return parts.join(" · ");
}

/** A topic's ideas, as its rolled-up state counts them (docs/learner.md). */
function ideasLine(rollup) {
  if (!rollup || !rollup.ideas) return null;
  const parts = [`${rollup.tried} of ${rollup.ideas} idea${rollup.ideas === 1 ? "" : "s"} tried`];
  if (rollup.solid) parts.push(`${rollup.solid} solid`);
  if (rollup.shaky) parts.push(`${rollup.shaky} shaky`);
  return h("p.small.node-ideas", `Its ideas: ${parts.join(" · ")}.`);
}

export function forgetShownNode() {
  shown += 1;  // a read in flight no longer fills the dock
}

/** `sourcesOf(id)`: a neighbour's sources from the map, which tell a note's link (another
 *  note) from a heading or idea under it (the same note); `topic`: an idea's topic node. */
export async function renderNodePanel(dock, shownNode, data, focus, sourcesOf = () => null, topic = null) {
  const names = await sourceNames();
  // The detail's outline of a note (its headings are sections, issue 28) sits beside the node.
  const node = data?.sections ? { ...shownNode, sections: data.sections } : shownNode;
  const byId = new Map((data?.nodes || []).map((n) => [n.id, n]));
  const quiz = (node.quiz || []).slice().sort((a, b) => b.at.localeCompare(a.at));
  replace(dock, h("article.dock-section.node-panel", { "aria-label": "Selected on your map" },
    stateBadge(node.state),
    h("h2.node-text", node.text),
    ideaOf(topic, focus),
    fromSession(data?.from_session),
    masterySection(node.id),
    ideasLine(data?.mastery_rollup),
    h("p.dock-study", studyButton({ nodeId: () => node.id,
      noteId: (node.sources || []).find((id) => names.has(id) && !chatName(id)) || null })),
    node.blocked_by && node.blocked_by.length
      ? h("p.gate", "Harder questions wait on: ",
        node.blocked_by.map((b) => byId.get(b.id)?.text || b.id).join("; "))
      : null,
    linksSection(node, data?.links, data?.edges, focus, { chatName, sourcesOf }),
    sectionsOutline(node, (id) => names.has(id)),
    evidenceSection(node, { isNote: (id) => names.has(id) && !chatName(id), resolve: resolver,
      sourceLink: (id, messageId) => sourceLink(id, messageId, names) }),
    quiz.length ? h("section", h("h3", "Quiz answers"),
      h("ol.trail", quiz.map((q) => h("li.quiz-event",
        h("span.verdict", { class: `verdict-${q.verdict}` }, verdictText(q.verdict)),
        " · ", sourceLink(q.source_id, null, names), " · ", formatDate(q.at))))) : null,
    (node.observations || []).length ? h("section", h("h3", "Observed"),
      h("ol.trail", node.observations.map((o) => h("li", `${o.level} · `,
        sourceLink(o.source_id, o.message_ids?.[0], names), " · ", formatDate(o.at))))) : null,
    node.cluster
      ? ankiExport(`cluster:${node.cluster}`, "Download this topic's cluster as an Anki deck")
      : ankiExport(`node:${node.id}`, "Download this as an Anki card"),
    h("p.dock-make", makeButton(nodeScopes(node, data))),
  ));
}

/** The topic alone, or the cluster it sits in (when it has one). */
function nodeScopes(node, data) {
  const scopes = [{ type: "topic", id: node.id, label: node.text }];
  const cluster = node.cluster && (data?.clusters || []).find((c) => c.id === node.cluster);
  if (node.cluster) scopes.push({ type: "cluster", id: node.cluster, label: cluster?.label || "" });
  return scopes;
}

function verdictText(v) {
  return { "correct": "✓ correct", "miss": "✗ missed", "dont-know": "? didn't know" }[v] || v;
}
