// The dock's evidence, grouped per source: the source (note or session) and its date once, then
// per section of a note its heading as a link into the reader, then the lines quoted from it as
// rendered Markdown (dock-text.js). A line quoted twice is shown once. With the detail's
// `sections` ([{heading, level, message_id, evidence}]) a note also lists its outline.

import { formatDate, h } from "./dom.js";
import { renderDockText } from "./dock-text.js";

/** `sourceId#anchor` -> the anchor; null for a note's preamble, its link view or a session. */
export function anchorOf(sourceId, messageId) {
  if (!messageId || !messageId.startsWith(`${sourceId}#`)) return null;
  const anchor = messageId.slice(sourceId.length + 1);
  return anchor && !anchor.includes("@") ? anchor : null;
}

function headingFor(messageId, anchor, sections) {
  const known = (sections || []).find((s) => s.message_id === messageId);
  if (known?.heading) return known.heading;
  const words = anchor.replace(/-\d+$/, "").replace(/-/g, " ").trim();
  return words ? words[0].toUpperCase() + words.slice(1) : null;
}

const lineKey = (text) => String(text).replace(/\s+/g, " ").trim().toLowerCase();

/** Evidence rows -> [{source_id, at, sections: [{message_id, anchor, quotes}]}], newest first. */
export function groupEvidence(evidence) {
  const rows = evidence.slice().sort((a, b) => b.at.localeCompare(a.at));
  const seen = new Set();
  const groups = new Map();
  for (const e of rows) {
    const key = lineKey(e.quote);
    if (!key || seen.has(key)) continue;  // no line twice
    seen.add(key);
    if (!groups.has(e.source_id)) groups.set(e.source_id, { source_id: e.source_id, at: e.at, sections: new Map() });
    const group = groups.get(e.source_id);
    const anchor = anchorOf(e.source_id, e.message_id);
    const part = anchor ? e.message_id : "";
    if (!group.sections.has(part)) group.sections.set(part, { message_id: e.message_id, anchor, quotes: [] });
    group.sections.get(part).quotes.push(e.quote);
  }
  return [...groups.values()].map((g) => ({ ...g, sections: [...g.sections.values()] }));
}

export function evidenceSection(node, { isNote, resolve, sourceLink }) {
  const groups = groupEvidence(node.evidence || []);
  const body = groups.length ? h("ol.trail.evidence-groups", groups.map((g) => h("li.evidence-group",
    h("p.trail-meta", sourceLink(g.source_id, g.sections[0]?.message_id, g.at), " · ", formatDate(g.at)),
    g.sections.map((s) => {
      const heading = s.anchor && isNote(g.source_id) ? headingFor(s.message_id, s.anchor, node.sections) : null;
      return h("div.evidence-section",
        heading ? h("p.evidence-heading", h("a.wikilink", {
          href: `#/sources/${encodeURIComponent(g.source_id)}?at=${encodeURIComponent(s.anchor)}`,
          title: "Open the note here",
        }, heading)) : null,
        s.quotes.map((q) => renderDockText(h("blockquote.prose.evidence-quote"), q, resolve, g.source_id)));
    }))))
    : h("p.muted.small", "No evidence recorded.");
  return h("section", h("h3", "Evidence"), body);
}

/** A note's outline from the detail's `sections`, each heading a link into the reader. */
export function sectionsOutline(node, isNote) {
  const sections = (node.sections || []).filter((s) => s.heading);
  if (!sections.length) return null;
  return h("section.node-sections", h("h3", "In this note"), h("ol.dock-outline", sections.map((s) => {
    const source = (node.sources || []).find((id) => anchorOf(id, s.message_id)) || (node.sources || []).find(isNote);
    const anchor = source ? anchorOf(source, s.message_id) : null;
    const count = (s.evidence || []).length;
    return h("li", { class: `toc-${s.level || 1}` },
      source && anchor ? h("a.wikilink", { href: `#/sources/${encodeURIComponent(source)}?at=${encodeURIComponent(anchor)}` }, s.heading)
        : h("span", s.heading),
      count ? h("span.muted.small", ` · ${count}`) : null);
  })));
}
