// The dock's evidence, grouped per source: the source (note or session) and its date once, then
// per section of a note its heading as a link into the reader, then the lines quoted from it as
// rendered Markdown (dock-text.js). A line quoted twice is shown once. With the detail's
// `sections` ([{heading, level, message_id, evidence}]) a note also lists its outline.

import { formatDate, h } from "./dom.js";
import { renderDockText, slugify } from "./dock-text.js";

/** `sourceId#anchor` -> the section's Obsidian subpath ("H1#H2", "~2" on a repeat); null for a
 *  note's preamble, its link view or a session's message. */
export function anchorOf(sourceId, messageId) {
  if (!messageId || !messageId.startsWith(`${sourceId}#`)) return null;
  const anchor = messageId.slice(sourceId.length + 1);
  return anchor && !anchor.startsWith("@") && !anchor.endsWith("@links") ? anchor : null;
}

/** The section's own heading: the subpath's last part, its repeat mark dropped. */
function headingOf(anchor) {
  return anchor.slice(anchor.lastIndexOf("#") + 1).replace(/~\d+$/, "").trim();
}

/** Where a section opens in the reader: a lecture's key moment at its second ("12:34 · …"
 * -> `t=754`), a PDF's page ("Page 3" -> `page=3`), a note's heading by its slug (`at=`). */
export function sectionQuery(sourceId, anchor) {
  const heading = headingOf(anchor);
  const clock = /^(?:(\d+):)?(\d+):(\d\d) · /.exec(heading);
  if (sourceId.startsWith("transcript_") && clock) {
    return `t=${Number(clock[1] || 0) * 3600 + Number(clock[2]) * 60 + Number(clock[3])}`;
  }
  const page = /^Page (\d+)$/.exec(heading);
  if (sourceId.startsWith("pdf_") && page) return `page=${page[1]}`;
  return `at=${encodeURIComponent(readerAt(anchor))}`;
}

/** The reader's `?at=` for a subpath: the chunker's slug, "-1", "-2"... on a repeat. */
export function readerAt(anchor) {
  const repeat = /~(\d+)$/.exec(anchor);
  return slugify(headingOf(anchor)) + (repeat ? `-${Number(repeat[1]) - 1}` : "");
}

function headingFor(messageId, anchor, sections) {
  const known = (sections || []).find((s) => s.message_id === messageId);
  return known?.heading || headingOf(anchor) || null;
}

const lineKey = (text) => String(text).replace(/\s+/g, " ").trim().toLowerCase();
const bare = (quote) => String(quote).replace(/^#{1,6}\s+/, "");  // a heading line's words

/** Evidence rows -> [{source_id, at, sections: [{message_id, anchor, quotes}]}], newest first.
 *  A line quoted twice is kept once; so is the title line ("# Backlinks") the dock shows above
 *  (unless it is all there is). */
export function groupEvidence(evidence, title = "") {
  const rows = evidence.slice().sort((a, b) => String(b.at).localeCompare(String(a.at)));
  const titled = lineKey(title);
  const seen = new Set(rows.some((e) => lineKey(bare(e.quote)) !== titled) ? [titled] : []);
  const groups = new Map();
  for (const e of rows) {
    const key = lineKey(bare(e.quote));
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

/** The node's evidence and its sections' (a note's headings carry their own lines once notes
 *  are one node each): rows {source_id, message_id, quote, at}; a section's bare quote is
 *  placed under the section's message. */
export function allEvidence(node) {
  const rows = [...(node.evidence || [])];
  for (const s of node.sections || []) {
    const source = (s.message_id || "").split("#")[0];
    // The detail's outline counts a section's lines (a number); a list carries the lines.
    for (const e of Array.isArray(s.evidence) ? s.evidence : []) {
      if (typeof e === "string") rows.push({ source_id: source, message_id: s.message_id, quote: e, at: node.created_at || "" });
      else if (e?.quote) rows.push({ source_id: source, message_id: s.message_id, at: node.created_at || "", ...e });
    }
  }
  return rows;
}

export function evidenceSection(node, { isNote, resolve, sourceLink }) {
  const groups = groupEvidence(allEvidence(node), node.text);
  const body = groups.length ? h("ol.trail.evidence-groups", groups.map((g) => h("li.evidence-group",
    h("p.trail-meta", sourceLink(g.source_id, g.sections[0]?.message_id, g.at), " · ", formatDate(g.at)),
    g.sections.map((s) => {
      let heading = s.anchor && isNote(g.source_id) ? headingFor(s.message_id, s.anchor, node.sections) : null;
      const own = lineKey(node.text);  // the title above: the note's, or a heading topic's own
      if (heading && (lineKey(heading) === own || own.endsWith(`: ${lineKey(heading)}`))) heading = null;
      return h("div.evidence-section",
        heading ? h("p.evidence-heading", h("a.wikilink", {
          href: `#/sources/${encodeURIComponent(g.source_id)}?${sectionQuery(g.source_id, s.anchor)}`,
          title: "Open the note here",
        }, heading)) : null,
        // A section's view quotes its heading first: under that heading, the line once.
        s.quotes.filter((q) => !heading || lineKey(bare(q)) !== lineKey(heading))
          .map((q) => renderDockText(h("blockquote.prose.evidence-quote"), q, resolve, g.source_id)));
    }))))
    : h("p.muted.small", "No evidence recorded.");
  return h("section", h("h3", "Evidence"), body);
}

/** A note's outline from the detail's `sections`, each heading a link into the reader. */
export function sectionsOutline(node, isNote) {
  // Not the title (level 0, or the note's "# Title" heading): the dock's heading says it.
  const sections = (node.sections || []).filter((s) => s.heading && s.level !== 0
    && lineKey(s.heading) !== lineKey(node.text));
  if (!sections.length) return null;
  const sources = node.sources || [];
  const what = sources.some((id) => id.startsWith("transcript_")) ? "lecture"
    : sources.some((id) => id.startsWith("pdf_")) ? "PDF" : "note";
  return h("section.node-sections", h("h3", `In this ${what}`), h("ol.dock-outline", sections.map((s) => {
    const source = s.source_id || (node.sources || []).find((id) => anchorOf(id, s.message_id))
      || (node.sources || []).find(isNote);
    const anchor = s.anchor || (source ? anchorOf(source, s.message_id) : null);
    const count = typeof s.evidence === "number" ? s.evidence : (s.evidence || []).length;
    return h("li", { class: `toc-${s.level || 1}` },
      source && anchor ? h("a.wikilink", { href: `#/sources/${encodeURIComponent(source)}?${sectionQuery(source, anchor)}` }, s.heading)
        : h("span", s.heading),
      count ? h("span.muted.small", ` · ${count}`) : null);
  })));
}
