// Sources (#/sources): the learner's shelf — every imported note, transcript, PDF and text file
// with its kind, status, how it is indexed and how much of it is in the graph; add material
// (the import dialog, with the folder picker in the desktop window), re-import, remove. A long
// shelf gets a find box ("/" focuses it): every word typed must be in a source's name, path,
// folder or kind.

import { api } from "./api.js";
import { h, plural, relativeTime, replace, SOURCE_KINDS, topicsAndIdeas } from "./dom.js";
import { openImport } from "./dialogs.js";
import { toast } from "./toast.js";
import { watchActivity } from "./activity.js";

export const KIND_ICONS = { note: "✎", transcript: "▶", pdf: "▤", text: "¶" };
const STATUS = { imported: "Imported", unchanged: "Up to date", skipped: "Skipped", deleted: "Removed",
  needs_transcription: "Needs transcription" };

const FIND_FROM = 8;  // sources on the shelf before it offers the find box

export function sourceHref(id, place = "") {
  return `#/sources/${encodeURIComponent(id)}${place ? `?${place}` : ""}`;
}

export async function mountSources({ main, dock }) {
  document.body.dataset.view = "sources";
  const list = h("div.shelf-body", { "aria-busy": "true" }, h("p.muted.shelf-loading", "Loading your sources…"));
  const count = h("p.muted.small.shelf-count", "");
  const add = h("button.primary", { type: "button", onclick: () => addMaterial() }, "Add material…");
  const find = h("input.shelf-filter", { type: "search", "aria-label": "Find a source",
    placeholder: "Find a source by name, folder or kind", autocomplete: "off",
    dataset: { slashTarget: "1" } });
  const matches = h("p.muted.small.shelf-matches", { role: "status" });
  const findKey = h("span", { hidden: true }, h("kbd", "/"), " find, ");
  const finder = h("div.shelf-find", { hidden: true }, h("span.search-key", { "aria-hidden": "true" }, "/"), find, matches);
  const page = h("section.shelf", { "aria-labelledby": "shelf-title" },
    h("header.shelf-head", h("div", h("h1", { id: "shelf-title" }, "Sources"), count), add),
    finder, list);
  replace(main, h("div.shelf-scroll", page));
  replace(dock, h("div.dock-section.shelf-help",
    h("h2", "Your material"),
    h("p", "Notes, lecture transcripts, PDFs and text you imported. Open one to read it — a lecture plays beside its transcript when the video or audio file sits next to it."),
    h("p.muted.small", "Removing a source takes its passages out of search. What you learned from it stays in your graph and your reviews."),
    h("p.muted.small", "Keys: ", findKey, h("kbd", "j"), " / ", h("kbd", "k"), " move, ", h("kbd", "Enter"), " open.")));
  let disposed = false;
  let shelf = [];  // the sources in shelf order, as last loaded
  find.addEventListener("input", () => show());
  find.addEventListener("keydown", (e) => {
    const first = list.querySelector("a.shelf-title");
    if ((e.key === "ArrowDown" || e.key === "Enter") && first) {
      e.preventDefault();
      if (e.key === "Enter") location.hash = first.getAttribute("href");
      else first.focus();
    }
  });

  async function load() {
    list.setAttribute("aria-busy", "true");
    let sources, totals;
    try {
      [sources, totals] = await Promise.all([api.get("/api/sources"), api.get("/api/shelf")]);
    } catch (error) {
      if (disposed) return;
      list.removeAttribute("aria-busy");
      document.body.dataset.sources = "error";
      replace(list, h("div.inline-error", h("p", `Could not load your sources: ${error.message}`),
        h("button", { type: "button", onclick: load }, "Try again")));
      return;
    }
    if (disposed) return;
    list.removeAttribute("aria-busy");
    document.body.dataset.sources = sources.length ? "ready" : "empty";
    add.hidden = !sources.length;  // the empty shelf offers it in its own words
    const live = sources.filter((s) => s.status !== "deleted");
    count.textContent = sources.length
      ? `${plural(totals.sources, "source")} · ${plural(totals.passages, "passage")} ${searchedBy(live)} · ${inGraph(totals)} in your graph`
      : "";
    if (!sources.length) {
      replace(list, h("div.shelf-empty",
        h("p.shelf-empty-mark", { "aria-hidden": "true" }, "▤"),
        h("h2", "Nothing on the shelf yet"),
        h("p", "Add a folder of notes (an Obsidian vault works), lecture transcripts (.vtt, .srt) with their videos, PDFs or text. No key is needed."),
        h("button.primary", { type: "button", onclick: () => addMaterial() }, "Add material…")));
      return;
    }
    const order = { imported: 0, unchanged: 0, needs_transcription: 1, skipped: 1, deleted: 2 };
    shelf = sources.slice().sort((a, b) => (order[a.status] - order[b.status]) || a.title.localeCompare(b.title));
    finder.hidden = findKey.hidden = shelf.length < FIND_FROM;
    show();
  }

  /** The shelf, or the sources every word in the find box is found in. */
  function show() {
    const words = finder.hidden ? [] : find.value.toLowerCase().split(/\s+/).filter(Boolean);
    const shown = words.length ? shelf.filter((s) => {
      const text = `${s.title} ${s.path} ${s.root} ${SOURCE_KINDS[s.kind] || s.kind}`.toLowerCase();
      return words.every((w) => text.includes(w));
    }) : shelf;
    matches.textContent = words.length ? `${shown.length} of ${plural(shelf.length, "source")}` : "";
    if (shown.length) {
      replace(list, h("ul.shelf-list", shown.map(row)));
      return;
    }
    replace(list, h("div.shelf-none",
      h("p", `No source has “${find.value.trim()}” in its name, folder or kind.`),
      h("button", { type: "button", onclick: () => { find.value = ""; show(); find.focus(); } }, "Show every source")));
  }

  // How search finds the passages, in the learner's words (not "semantic" or "vectors"): the
  // shelf's line says it once; a row speaks up only when it differs.
  let wordsOnly = false;  // no source can be searched by meaning: the shelf's line says so

  /** What of the graph cites a source, or the shelf (each node once, by the server): "4 topics",
   *  "1 topic and 3 ideas". */
  function inGraph(counts) {
    return topicsAndIdeas(counts.graph_topics, counts.graph_nodes - counts.graph_topics);
  }

  function searchedBy(live) {
    const indexed = live.filter((s) => s.chunks);
    wordsOnly = indexed.length > 0 && indexed.every((s) => !s.embedded);
    if (wordsOnly) return "searchable by exact words only (meaning search is off)";
    if (indexed.length && indexed.every((s) => s.embedded && !s.stale)) return "searchable by meaning";
    return "searchable";
  }

  function searchability(s) {
    if (s.stale) return h("span.shelf-stale", { title: `Indexed for meaning search by ${s.embedded}, but search uses another model now. Re-import it to index it again.` }, " · meaning search out of date");
    if (s.embedded || wordsOnly) return null;  // said once, in the shelf's line
    return h("span", { title: "Meaning search was off when this was imported, so search finds these passages only by their exact words. Re-import it to search it by meaning." }, " · exact words only");
  }

  function row(s) {
    const gone = s.status === "deleted";
    const skipped = s.status === "skipped";
    const title = gone || skipped
      ? h("span.shelf-title", s.title)
      : h("a.shelf-title", { href: sourceHref(s.id) }, s.title);
    const indexed = s.chunks ? [plural(s.chunks, "passage"), searchability(s)]
      : (gone ? "not searchable" : skipped ? "" : "not searchable yet");
    return h("li.shelf-row", { class: `status-${s.status}`, dataset: { id: s.id, kind: s.kind } },
      h("span.kind-icon", { "aria-hidden": "true", title: SOURCE_KINDS[s.kind] }, KIND_ICONS[s.kind] || "•"),
      h("div.shelf-main",
        title,
        h("p.shelf-path", h("span.shelf-kind", SOURCE_KINDS[s.kind] || s.kind), " · ", s.path),
        skipped ? h("p.shelf-reason", `Skipped: ${s.reason || "could not be read"}`) : null,
        s.status === "needs_transcription"
          ? h("p.shelf-reason", "No transcript yet: this recording is transcribed with your own key. ",
            h("a", { href: "#/settings" }, s.action || "Add a key for the transcriber in Settings"), ".")
          : null,
        h("p.shelf-facts",
          h("span.status-pill", { class: `pill-${s.status}` }, STATUS[s.status] || s.status),
          h("span.shelf-indexed", indexed),
          s.has_media ? h("span.shelf-media", "▶ with its recording") : null,
          h("span.shelf-graph", s.graph_nodes ? `${inGraph(s)} in your graph` : "not in the graph"),
          h("span.shelf-when", { title: s.imported_at }, relativeTime(s.imported_at)))),
      h("div.shelf-actions",
        h("button.small", { type: "button", title: `Import ${s.root} again`, "aria-label": `Re-import ${s.title}`,
          onclick: () => reimport(s) }, "Re-import"),
        gone ? null : h("button.small.quiet-danger", { type: "button", "aria-label": `Remove ${s.title}`,
          onclick: () => remove(s) }, "Remove")));
  }

  async function reimport(s) {
    try {
      await api.post(`/api/sources/${encodeURIComponent(s.id)}/reimport`);
      watchActivity();
      toast(`Importing ${s.root} again…`);
      setTimeout(() => { if (!disposed) load(); }, 1500);
    } catch (error) {
      toast(error.message, { kind: "error" });
    }
  }

  async function remove(s) {
    if (!window.confirm(`Remove “${s.title}”? Its passages leave search; what you learned from it stays.`)) return;
    try {
      const done = await api.del(`/api/sources/${encodeURIComponent(s.id)}`);
      toast(`Removed ${s.title} (${plural(done.chunks_removed, "passage")} out of search).`);
      load();
    } catch (error) {
      toast(error.message, { kind: "error" });
    }
  }

  function addMaterial() {
    openImport();
    const dialog = document.querySelector("dialog[open]");
    dialog?.addEventListener("close", () => { if (!disposed) load(); });
  }

  function handleKey(e) {
    if (e.key !== "j" && e.key !== "k" && e.key !== "ArrowDown" && e.key !== "ArrowUp") return false;
    const links = [...list.querySelectorAll("a.shelf-title")];
    if (!links.length) return false;
    const at = links.indexOf(document.activeElement);
    const step = e.key === "j" || e.key === "ArrowDown" ? 1 : -1;
    links[Math.max(0, Math.min(links.length - 1, at < 0 ? 0 : at + step))].focus();
    return true;
  }

  await load();
  return {
    unmount() { disposed = true; delete document.body.dataset.sources; },
    handleKey,
    get focusSearch() { return finder.hidden ? undefined : () => find.focus(); },  // a short shelf: "/" searches the graph
  };
}
