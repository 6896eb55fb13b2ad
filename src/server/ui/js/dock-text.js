// The dock's text reads like the reader: a note line is safe Markdown (markdown.js, the
// reader's renderer), its wikilinks links to the note they name (the rules of
// core/library/sources/note_reading.py, here over /api/sources), emphasis as emphasis. A quoted
// heading ("### Parameters") reads as a bold line, not as a heading of the dock; a callout's
// head ("[!note] Good to know") as its title in bold.

import { toSafeHtml, typesetMath } from "./markdown.js";

const WIKILINK = /(!?)\[\[([^[\]\n]+?)\]\]/g;
const FENCE = /^\s*(```|~~~)/;
const CALLOUT = /^(\s*(?:>\s*)*)\[!([\w-]+)\][+-]?\s*(.*)$/;  // "> [!note] Title": Obsidian's callout head

/** Path lookups of the imported notes: [{id, path}] -> resolve(target) -> source id or null. */
export function noteResolver(sources) {
  const byPath = new Map(), byName = new Map();
  const sorted = [...sources].filter((s) => s.path).sort((a, b) => (a.path < b.path ? -1 : 1));
  for (const s of sorted) {
    const path = s.path.replace(/\\/g, "/").toLowerCase();
    byPath.set(path, s.id);
    const name = path.slice(path.lastIndexOf("/") + 1);
    if (!byName.has(name)) byName.set(name, s.id);
  }
  return (target) => {
    const wanted = target.trim().replace(/\\/g, "/").replace(/^\/+/, "").toLowerCase();
    if (!wanted) return null;
    const tries = [wanted, `${wanted}.md`, `${wanted}.markdown`];
    for (const t of tries) if (byPath.has(t)) return byPath.get(t);
    for (const [path, id] of byPath) if (tries.some((t) => path.endsWith(`/${t}`))) return id;
    for (const t of tries) if (byName.has(t)) return byName.get(t);
    return null;
  };
}

/** The reader's anchor for a heading (core/library/retrieval/chunking.py slugify). */
export function slugify(heading) {
  const text = heading.normalize("NFKC").trim().toLowerCase().replace(/[^\p{L}\p{N}_\- ]+/gu, "");
  return text.replace(/\s/g, "-") || "section";
}

/** What a wikilink reads as (note_reading.py's link_label): its alias, else the note and the
 *  heading it points at ("Krebs cycle › Where it happens"), the note alone for a block
 *  ("Note#^block155"), never the link's `#` or `^`. */
export function linkLabel(name, heading = "", alias = "") {
  const section = heading.slice(heading.lastIndexOf("#") + 1).trim();
  const note = name.trim();
  let label = alias.trim();
  if (!label && section && !section.startsWith("^")) label = note ? `${note} › ${section}` : section;
  if (!label) label = note || "this note";
  return label.replace(/[[\]]/g, "");
}

/** `[[Target#Heading|Alias]]` -> a Markdown link into the reader (plain text when the target
 *  was not imported); an embed becomes a quiet mention. Code fences are left alone. */
export function linkWikilinks(text, resolve, selfId = null) {
  let fenced = false;
  return String(text ?? "").split("\n").map((line) => {
    if (FENCE.test(line)) {
      fenced = !fenced;
      return line;
    }
    if (fenced) return line;
    const callout = CALLOUT.exec(line);
    if (callout) {  // its title (or its kind) in bold, as the reader of a callout sees it
      const [, quote, kind, title] = callout;
      line = `${quote}**${title.trim() || kind[0].toUpperCase() + kind.slice(1)}**`;
    }
    return line.replace(WIKILINK, (_, embed, inner) => {
      const [target, ...rest] = inner.split("|");
      const [name, ...headings] = target.split("#");
      const heading = headings.join("#");
      const label = linkLabel(name, heading, rest.join("|"));
      const id = !name.trim() ? selfId : resolve(name);
      if (embed) return id ? `[↪ ${label}](#/sources/${encodeURIComponent(id)})` : `*(embedded: ${label})*`;
      if (!id) return label;
      const section = (headings[0] || "").split("^")[0];  // a block's link opens its note
      const at = section.trim() ? `?at=${encodeURIComponent(slugify(section))}` : "";
      return `[${label}](#/sources/${encodeURIComponent(id)}${at})`;
    });
  }).join("\n");
}

/** Render a note line (or a session's words) into `el` as the reader would. */
export function renderDockText(el, text, resolve, selfId = null) {
  el.innerHTML = toSafeHtml(linkWikilinks(text, resolve, selfId));
  for (const heading of el.querySelectorAll("h1, h2, h3, h4, h5, h6")) {
    const line = document.createElement("p");
    const strong = document.createElement("strong");
    strong.append(...heading.childNodes);
    line.append(strong);
    heading.replaceWith(line);
  }
  for (const a of el.querySelectorAll('a[href^="#/"]')) {  // links into the app stay here
    a.removeAttribute("target");
    a.removeAttribute("rel");
    a.classList.add("wikilink");
  }
  typesetMath(el);
  return el;
}
