// What a topic is linked with, for the dock, from the detail's `links` (core/library/graph/
// links.py) and `edges`:
// - "Links to" / "Linked from": a note's links (an edge of kind `links`, or a `supports` edge
//   between topics of two different notes, neither from a session: a heading under its note or
//   an idea under its topic shares the note), direction kept, each with how many links when
//   the edge counts them; a note linked both ways is listed once, under "Links to" (⇄);
// - "Builds on" / "Leads to": prerequisites (`follows`), a session finding's anchor, and a
//   heading's note (while headings are still nodes);
// - "Learned in your sessions": the findings anchored under a note topic.
// Each entry flies to its node.

import { h, stateGlyph } from "./dom.js";

/** The detail's links sorted into the dock's lists (see the module docstring); `sourcesOf(id)`
 *  is a neighbour's sources as the map holds them (null when it does not). */
export function sortLinks(node, links, edges, { fromSession, sourcesOf = () => null }) {
  const own = new Set(node.sources || []);
  const otherNote = (id) => {
    const theirs = sourcesOf(id);
    return Boolean(theirs && theirs.length && own.size && !theirs.some((s) => own.has(s)));
  };
  const out = { buildsOn: [], learned: [], leadsTo: [], linksTo: [], linkedFrom: [] };
  const weight = new Map();  // "from>to" -> how many links the edge counts (when it says)
  for (const e of edges || []) {
    const n = e.count || e.weight;
    if (n) weight.set(`${e.from}>${e.to}`, (weight.get(`${e.from}>${e.to}`) || 0) + n);
  }
  const count = (from, to) => weight.get(`${from}>${to}`) || 1;
  const asLink = (x) => x.relation !== "follows" && x.relation !== "supports" ? true
    : x.relation === "supports" && !fromSession && !x.session && otherNote(x.id);
  for (const x of links?.builds_on || []) {
    // builds_on holds the targets of this node's supports edges: for a link, what it links to;
    // for another kind (links.py puts a `links` edge's sources here), what links to it.
    const outgoing = x.relation === "supports";
    const item = { ...x, count: outgoing ? count(node.id, x.id) : count(x.id, node.id) };
    if (asLink(x)) (outgoing ? out.linksTo : out.linkedFrom).push(item);
    else out.buildsOn.push(item);
  }
  for (const x of links?.leads_to || []) {
    const incoming = x.relation === "supports";
    const item = { ...x, count: incoming ? count(x.id, node.id) : count(node.id, x.id) };
    if (asLink(x)) (incoming ? out.linkedFrom : out.linksTo).push(item);
    else if (!fromSession && x.session) out.learned.push(item);
    else out.leadsTo.push(item);
  }
  // Linked both ways: once, under "Links to", marked as linking back.
  const back = new Set(out.linkedFrom.map((x) => x.id));
  out.linksTo = out.linksTo.map((x) => (back.has(x.id) ? { ...x, both: true } : x));
  const both = new Set(out.linksTo.filter((x) => x.both).map((x) => x.id));
  out.linkedFrom = out.linkedFrom.filter((x) => !both.has(x.id));
  return out;
}

export function linksSection(node, links, edges, focus, { chatName, sourcesOf }) {
  const own = new Set(node.sources || []);
  const fromSession = (node.sources || []).some((s) => chatName(s));
  const sorted = sortLinks(node, links, edges, { fromSession, sourcesOf });
  const list = (title, items) => linkList(title, items, focus, own, chatName);
  return h("div.node-links",
    list("Builds on", sorted.buildsOn),
    list("Learned in your sessions", sorted.learned),
    list("Links to", sorted.linksTo),
    list("Linked from", sorted.linkedFrom),
    list("Leads to", sorted.leadsTo));
}

/** Links that fly to their node, each with the session it was learned in (unless it is this
 *  node's own) and how many links join them when more than one. */
function linkList(title, items, focus, own, chatName) {
  if (!items.length) return null;
  return h("section.node-linked", h("h3", title), h("ul.linked", items.map((x) => h("li",
    h("button.link-button", { type: "button", title: "Show it in the graph", onclick: () => focus(x.id) },
      stateGlyph(x.state, 10), h("span", x.text)),
    x.count > 1 ? h("span.link-count.muted.small", ` ×${x.count}`) : null,
    x.both ? h("span.link-both.muted.small", { title: "It links back here too" }, " ⇄") : null,
    x.session && !own.has(x.session) && chatName(x.session)
      ? h("span.link-session", `in ${chatName(x.session)}`) : null))));
}
