// The reader and player (#/sources/<id>): a note as safe Markdown (wikilinks open other
// sources), a PDF page by page, a transcript beside its local video or audio — the current cue
// highlighted and kept in view as it plays, a click on a cue seeks. Opened at a place:
// ?at=heading-slug (a note), ?page=N (a PDF), ?t=SECONDS (a transcript).

import { api } from "./api.js";
import { h, replace } from "./dom.js";
import { clock } from "./when.js";
import { renderMarkdown } from "./markdown.js";
import { momentPlace } from "./ask-view.js";
import { KIND_ICONS, sourceHref } from "./sources.js";
import { mountReaderTools } from "./reader-tools.js";
import { keyMoments } from "./key-moments.js";
import { noteNode, studyButton } from "./study-this.js";
import { makeButton } from "./artifacts-make.js";
import { drawDiagrams } from "./reader-diagrams.js";

export async function mountReader({ main, dock }, params, query) {
  document.body.dataset.view = "reader";
  document.body.dataset.reader = "loading";
  const id = params.id;
  const scroll = h("div.reader-scroll");
  replace(main, scroll);
  replace(scroll, h("div.reader.reader-loading", { "aria-busy": "true" },
    h("p.muted", "Opening the source…"), h("div.skeleton-line"), h("div.skeleton-line.short"), h("div.skeleton-line")));
  replace(dock, h("div.dock-section"));
  let body;
  try {
    body = await api.get(`/api/sources/${encodeURIComponent(id)}`);
  } catch (error) {
    document.body.dataset.reader = "error";
    replace(scroll, h("div.reader", h("a.reader-back", { href: "#/sources" }, "← Sources"),
      h("div.inline-error.reader-error", { role: "alert" },
        h("p", error.status === 404 ? error.message : `Could not open this source: ${error.message}`),
        h("p", h("a.button-link", { href: "#/sources" }, "Back to Sources"), " ",
          h("button", { type: "button", onclick: () => mountReader({ main, dock }, params, query) }, "Try again")))));
    return {};
  }
  const head = h("header.reader-head",
    h("a.reader-back", { href: "#/sources" }, "← Sources"),
    h("h1.reader-title", h("span.kind-icon", { "aria-hidden": "true" }, KIND_ICONS[body.kind] || "•"), body.title),
    h("p.muted.small.reader-path", body.path));
  const view = VIEWS[body.kind] || VIEWS.text;
  let mounted = null;
  // "Ask about this" and "Quiz me" read the place on screen when they are used.
  const tools = mountReaderTools(dock, { sourceId: body.id, kind: body.kind, where: () => mounted?.where?.() || {} });
  head.append(h("div.reader-actions",
    h("button.quiz-me-button", { type: "button", onclick: () => tools.quizMe() }, "Quiz me"),
    h("button", { type: "button", onclick: () => { tools.show("ask"); tools.ask.focus(); } }, "Ask about this"),
    body.kind === "note" ? studyButton({ nodeId: () => noteNode(body.id, body.title), quizHere: () => tools.quizMe({ whole: true }) }) : null,
    makeButton({ type: "source", id: body.id, label: body.title }, { small: false, text: "Make…" })));
  mounted = view(body, { scroll, dock: tools.contents, head });
  tools.refresh();
  mounted.place(query);
  // Today's "learn next" and "Study this" with no model: quiz at once, on the whole note (the
  // learner has just arrived, so "up to here" would be its first heading).
  if (query.get("quiz")) tools.quizMe({ whole: true });
  document.body.dataset.reader = body.kind;
  return {
    update(_params, q) { mounted.place(q); },
    handleKey: mounted.handleKey,
    unmount() { mounted.stop?.(); tools.unmount(); delete document.body.dataset.reader; },
  };
}

/** Mark one element as where the learner was sent, and bring it into view. */
function arrive(el, container) {
  for (const old of container.querySelectorAll(".at-target")) old.classList.remove("at-target");
  if (!el) return;
  el.classList.add("at-target");
  el.scrollIntoView({ block: "start" });
}

/**
 * Where the learner is: the heading (or page) they were sent to while it is on screen, else the
 * last one that starts in the top third of the reading area.
 */
function inView(elements, scroll) {
  const view = scroll.getBoundingClientRect();
  const sent = elements.find((el) => el.classList.contains("at-target"));
  if (sent) {
    const box = sent.getBoundingClientRect();
    if (box.bottom > view.top && box.top < view.bottom) return sent;
  }
  const line = view.top + view.height / 3;
  let found = null;
  for (const el of elements) {
    if (el.getBoundingClientRect().top <= line) found = el;
    else break;
  }
  return found;
}

/** The furthest of `elements` read in this visit of the source: "Quiz me on what I've read"
 * means it, even after the learner scrolls back up to the title to press Quiz me there. */
function furthestRead(elements, scroll) {
  let furthest = -1;
  let queued = false;
  const note = () => {
    queued = false;
    const el = inView(elements, scroll);
    furthest = Math.max(furthest, el ? elements.indexOf(el) : -1);
  };
  scroll.addEventListener("scroll", () => {
    if (!queued) { queued = true; requestAnimationFrame(note); }
  }, { passive: true });
  return {
    element() {
      note();  // what is on screen now counts too
      return furthest >= 0 ? elements[furthest] : null;
    },
  };
}

function outline(dock, title, items) {
  replace(dock, h("nav.dock-section.reader-outline", { "aria-label": title },
    h("h2", title), items.length ? h("ol", items) : h("p.muted.small", "Nothing to list.")));
}

// --- a note ---------------------------------------------------------------------------------

function noteView(body, { scroll, dock, head }) {
  const article = h("article.prose.reader-prose");
  renderMarkdown(article, body.markdown, { vaultImages: true });  // the note's own pictures
  const found = [...article.querySelectorAll("h1, h2, h3, h4, h5, h6")];
  found.forEach((el, i) => {
    const slug = body.headings[i]?.slug;
    if (slug) el.id = `at-${slug}`;
  });
  for (const a of article.querySelectorAll('a[href^="#/"]')) {  // links into the app stay here
    a.removeAttribute("target");
    a.removeAttribute("rel");
    a.classList.add("wikilink");
  }
  replace(scroll, h("div.reader", head, article));
  drawDiagrams(article);
  outline(dock, "In this note", body.headings.map((x) => h("li", { class: `toc-${x.level}` },
    h("a", { href: sourceHref(body.id, `at=${encodeURIComponent(x.slug)}`) }, x.text))));
  const read = furthestRead(found, scroll);
  return {
    place(q) {
      const at = q.get("at");
      const el = at ? article.querySelector(`#${CSS.escape(`at-${at}`)}`) : null;
      if (at && !el) arrive(null, article);
      else if (el) arrive(el, article);
      else scroll.scrollTop = 0;
    },
    where() {
      const el = read.element();
      return el?.id ? { at: el.id.slice(3) } : {};
    },
  };
}

// --- a PDF ----------------------------------------------------------------------------------

function pdfView(body, { scroll, dock, head }) {
  const pages = body.pages.map((p) => h("section.pdf-page", { id: `page-${p.page}`, "aria-label": `Page ${p.page}` },
    h("p.page-text", p.text || h("span.muted", "No text on this page (a scanned image).")),
    h("footer.page-number", `Page ${p.page} of ${body.pages.length}`)));
  replace(scroll, h("div.reader.reader-pdf", head, pages.length ? pages : h("p.muted", "This PDF has no readable text.")));
  outline(dock, "Pages", body.pages.map((p) => h("li", h("a", { href: sourceHref(body.id, `page=${p.page}`) },
    `Page ${p.page}`, h("span.muted.small.toc-snippet", ` — ${(p.text || "").slice(0, 48)}`)))));
  let current = 1;
  const read = furthestRead(pages, scroll);
  const place = (q) => {
    const n = Number(q.get("page"));
    current = Number.isInteger(n) && n >= 1 ? Math.min(n, body.pages.length) : 1;
    if (q.get("page")) arrive(scroll.querySelector(`#page-${current}`), scroll);
    else scroll.scrollTop = 0;
  };
  return {
    place,
    where() {
      const el = read.element();
      return { page: el ? Math.max(Number(el.id.slice(5)), current) : current };
    },
    handleKey(e) {
      if (e.key !== "j" && e.key !== "k") return false;
      current = Math.max(1, Math.min(body.pages.length, current + (e.key === "j" ? 1 : -1)));
      place(new URLSearchParams(`page=${current}`));
      history.replaceState(null, "", sourceHref(body.id, `page=${current}`));
      return true;
    },
  };
}

// --- a transcript (and its player) ----------------------------------------------------------

function transcriptView(body, { scroll, dock, head }) {
  const cues = body.cues;
  const items = cues.map((c, i) => h("li.cue", { dataset: { i: String(i) } },
    h("button.cue-line", { type: "button" },  // its name holds the cue's words (axe: label-content-name-mismatch)
      h("span.visually-hidden", "Play from "), h("span.cue-time", clock(c.start)), " ", h("span.cue-text", c.text))));
  const list = h("ol.cue-list", { "aria-label": "Transcript" }, items);
  let media = null;
  let player;
  let pastEnd = null;
  if (body.media) {
    media = h(body.media === "video" ? "video" : "audio", {
      controls: true, preload: "metadata", src: `/api/sources/${encodeURIComponent(body.id)}/media`,
    });
    const problem = h("p.muted.small.player-note", { hidden: true }, "This recording cannot be played here; the transcript still follows your clicks.");
    media.addEventListener("error", () => { problem.hidden = false; });
    pastEnd = h("p.muted.small.player-note.past-end", { hidden: true, role: "status" });
    player = h("div.player", media, problem, pastEnd);
  } else {
    player = h("p.muted.small.player-note.no-media",
      "No recording beside this transcript. Put the video or audio file next to it with the same name (Lecture 3.mp4 beside Lecture 3.vtt or Lecture 3.eng.vtt) and import again to play it here.");
  }
  replace(scroll, h("div.reader.reader-transcript", head, h("div.player-sticky", player), keyMoments(body), list));

  let active = -1;
  const cueAt = (t) => {
    let lo = 0, hi = cues.length - 1, found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (cues[mid].start <= t + 0.001) { found = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return found;
  };
  const highlight = (i, { center = false } = {}) => {
    if (i === active) return;
    items[active]?.classList.remove("current");
    items[active]?.removeAttribute("aria-current");
    active = i;
    const el = items[i];
    if (!el) return;
    el.classList.add("current");
    el.setAttribute("aria-current", "true");
    const box = el.getBoundingClientRect();
    const view = scroll.getBoundingClientRect();
    if (center || box.top < view.top + 120 || box.bottom > view.bottom - 20) el.scrollIntoView({ block: "center" });
  };
  const seek = (t, play) => {
    highlight(cueAt(t), { center: true });
    if (!media) return;
    const go = () => {
      // A recording shorter than its transcript cannot go there: the cue stays the place.
      if (Number.isFinite(media.duration) && t > media.duration) {
        media.pause();
        pastEnd.textContent = `The recording ends at ${clock(media.duration)}, before ${clock(t)}: read this moment in the transcript.`;
        pastEnd.hidden = false;
        return;
      }
      pastEnd.hidden = true;
      media.currentTime = t;
      if (play) media.play().catch(() => {});
    };
    if (media.readyState >= 1) go();
    else media.addEventListener("loadedmetadata", go, { once: true });
  };
  list.addEventListener("click", (e) => {
    const li = e.target.closest("li.cue");
    if (!li) return;
    const cue = cues[Number(li.dataset.i)];
    history.replaceState(null, "", sourceHref(body.id, momentPlace(cue.start)));
    seek(cue.start, true);
  });
  // Follow the recording only while it plays: a paused player keeps the place asked for.
  media?.addEventListener("timeupdate", () => { if (!media.paused) highlight(cueAt(media.currentTime)); });
  return {
    where() {
      // A playing recording is the place; a paused one stays at the cue asked for.
      if (media && !media.paused) return { t: media.currentTime };
      return { t: active >= 0 ? cues[active].start : 0 };
    },
    place(q) {
      const t = Number(q.get("t"));
      if (q.get("t") !== null && Number.isFinite(t)) seek(t, false);
      else { scroll.scrollTop = 0; highlight(-1); }
    },
    handleKey(e) {
      if (e.key === " " && media) {
        if (media.paused) media.play().catch(() => {}); else media.pause();
        return true;
      }
      if (e.key !== "j" && e.key !== "k") return false;
      const next = Math.max(0, Math.min(cues.length - 1, active + (e.key === "j" ? 1 : -1)));
      seek(cues[next].start, false);
      items[next].querySelector("button").focus({ preventScroll: true });
      return true;
    },
    stop() { media?.pause(); },
  };
}

// --- plain text -----------------------------------------------------------------------------

function textView(body, { scroll, dock, head }) {
  const sections = (body.sections || []).map((s) => h("section.text-section",
    s.heading ? h("h2", s.heading) : null, s.text.split(/\n{2,}/).map((p) => h("p", p))));
  replace(scroll, h("div.reader", head, h("article.prose.reader-prose", sections)));
  outline(dock, "Sections", (body.sections || []).filter((s) => s.heading).map((s) => h("li", s.heading)));
  return { place() {} };
}

const VIEWS = { note: noteView, pdf: pdfView, transcript: transcriptView, text: textView };
