// One Ask exchange on screen: the question, the coverage case in plain words, the answer as safe
// Markdown with numbered citation chips that open the reader at the passage, and the passages
// used (or, with no model, the best-matching passages, clearly "not an answer").

import { h, replace } from "./dom.js";
import { renderMarkdown } from "./markdown.js";
import { clock } from "./when.js";

// The case, in words, with a glyph so colour never carries it alone.
export const CASES = {
  MATCH: { glyph: "●", cls: "match", label: "From your material", hint: "Every claim cites the passage it comes from." },
  IN_SOURCE: { glyph: "●", cls: "match", label: "From this source", hint: "Answered from the source you are reading." },
  IN_MOMENT: { glyph: "●", cls: "match", label: "From this moment", hint: "Answered from what is on screen." },
  RELATED: { glyph: "◐", cls: "related", label: "Related material", hint: "Your material touches on this but does not answer it fully." },
  NO_MATCH: { glyph: "○", cls: "none", label: "Not in your material — general knowledge, nothing cited", hint: "" },
};

// With no model: NO_MATCH near the question (only a reader could tell), or far from it.
const UNCONFIRMED = { glyph: "◌", cls: "none", label: "Can't tell without a model",
  hint: "These passages are close to your question; read them to see if one answers it." };
const FAR = { glyph: "○", cls: "none", label: "Not in your material",
  hint: "Nothing you imported comes close to this question." };

// A transcript place: the moment itself, to the millisecond. Whole seconds would open a cue
// that starts at 308.6 s at 308 s — inside the cue before it, which then lights up.
export function momentPlace(seconds) {
  return `t=${Math.round(seconds * 1000) / 1000}`;
}

/** The reader's address for a passage: its source, at the second, page or heading it starts at. */
export function passageHref(p) {
  let place = "";
  if (p.start !== null && p.start !== undefined) place = momentPlace(p.start);
  else if (p.page) place = `page=${p.page}`;
  else if (p.anchor && !/^(t|page)=/.test(p.anchor)) place = `at=${encodeURIComponent(p.anchor)}`;
  return `#/sources/${encodeURIComponent(p.source_id)}${place ? `?${place}` : ""}`;
}

/** Where in its source a passage sits, in words ("4:12", "p. 12", "§ Backlinks"). */
export function placeOf(p) {
  if (p.start !== null && p.start !== undefined) return clock(p.start);
  if (p.page) return `p. ${p.page}`;
  if (p.heading) return `§ ${p.heading}`;
  return "";
}

function chip(p) {
  return h("a.cite-chip", {
    href: passageHref(p), title: `${p.title || p.path}${placeOf(p) ? ` · ${placeOf(p)}` : ""}`,
    "aria-label": `Source ${p.n}: ${p.title || p.path}`, dataset: { n: String(p.n) },
  }, String(p.n));
}

/** Replace "[n]" markers in rendered text with chips (text nodes only: code stays as written).
 *  Also a study session's citations of its note (transcript.js). */
export function linkMarkers(root, sources) {
  const byN = new Map(sources.map((p) => [p.n, p]));
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => (node.parentElement?.closest("code, pre") ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  const texts = [];
  while (walker.nextNode()) if (/\[\d+\]/.test(walker.currentNode.nodeValue)) texts.push(walker.currentNode);
  for (const node of texts) {
    const parts = node.nodeValue.split(/(\[\d+\])/);
    const frag = document.createDocumentFragment();
    for (const part of parts) {
      const m = /^\[(\d+)\]$/.exec(part);
      const p = m && byN.get(Number(m[1]));
      frag.append(p ? chip(p) : part);
    }
    node.replaceWith(frag);
  }
}

function caseLine(caseName, { noModel, unconfirmed }) {
  let c = CASES[caseName];
  if (!c) return null;
  // With no answer written, "general knowledge" would promise something that is not there;
  // and near passages were only matched by words and meaning, not read (``unconfirmed``).
  if (noModel && caseName === "NO_MATCH") c = unconfirmed ? UNCONFIRMED : FAR;
  else if (noModel) c = { ...c, hint: "" };
  const hint = c.hint;
  return h("p.ask-case", { class: `case-${c.cls}`, dataset: { case: caseName } },
    h("span.case-glyph", { "aria-hidden": "true" }, c.glyph), h("strong", c.label),
    hint ? h("span.case-hint", hint) : null);
}

function passageItem(p, cited) {
  const shown = shownFrom(p);
  const place = placeOf(shown.where);
  return h("li.ask-passage", { class: cited ? "cited" : "" },
    h("a.passage-link", { href: passageHref(shown.where) },
      h("span.passage-n", { "aria-hidden": "true" }, String(p.n)),
      h("span.passage-body",
        h("span.passage-title", p.title || p.path, place ? h("span.passage-place", ` · ${place}`) : null),
        passageText(p, shown))));
}

/** Where the passage's shown words begin. Two clamped lines hold ~160 characters, so a nearest
 *  sentence further in is shown from its start: in a lecture, whose passage spans a minute,
 *  the label and the link then go to that sentence's own moment (`closest_start`). Without
 *  that moment the passage is shown from its start, so the time given is where its words are. */
function shownFrom(p) {
  const at = p.closest ? p.text.indexOf(p.closest) : -1;
  const timed = p.start !== null && p.start !== undefined;
  const skip = at > 160 && (!timed || typeof p.closest_start === "number");
  return { at, skip, where: skip && timed ? { ...p, start: p.closest_start } : p };
}

/** The passage's words, its sentence nearest the question marked (no-model passages only). */
function passageText(p, { at, skip }) {
  if (at < 0) return h("span.passage-text", p.text);
  return h("span.passage-text.has-closest", skip ? "… " : p.text.slice(0, at),
    h("mark.passage-closest", { title: "The sentence nearest your question" }, p.closest),
    p.text.slice(at + p.closest.length));
}

/** One short line: these are passages, and a key gets written answers (why, folded away). */
function noModelNote(reason) {
  return h("p.ask-no-model.small", { role: "note" },
    h("strong", "Not an answer"), " — passages only. ",
    h("a", { href: "#/settings" }, "Add a key in Settings"), " for written answers with citations.",
    reason ? h("details.ask-reason", h("summary", "Why?"), h("span.muted", reason)) : null);
}

/** Where a moment is, as a link: "Lecture 04 · 12:34" (just "12:34" inside the open source). */
function momentLink(m, cls, scope) {
  const place = placeOf(m);
  const title = m.title || m.path;
  if (scope && m.source_id === scope && place) return h(`a.${cls}`, { href: passageHref(m), title }, place);
  return h(`a.${cls}`, { href: passageHref(m) }, title, place ? h("span.passage-place", ` · ${place}`) : null);
}

/** "Taken to …" (only when the learner asked to go somewhere) and at most two moments: where
 *  the cited passages are ("Go to:", a lecture's moment or a PDF's page), else other moments. */
function moments(x) {
  const went = x.navigate ? h("p.ask-navigated", h("span", { "aria-hidden": "true" }, "↪ "), "Took you to ",
    momentLink(x.navigate, "ask-moment", x.scope)) : null;
  const others = (x.suggest || []).slice(0, 2);
  const cited = new Set((x.sources || []).map((p) => p.link));
  const jumps = others.length && others.every((m) => cited.has(m.link));
  const more = others.length ? h("nav.ask-suggest", { "aria-label": jumps ? "Where the cited passages are" : "Other moments about this" },
    h("span.ask-suggest-title", jumps ? "Go to:" : "Also about this:"), others.map((m) => momentLink(m, "ask-moment", x.scope))) : null;
  return went || more ? [went, more] : null;
}

/** The calm line under an answer that broke off (the app stopped, the connection or the model
 * failed): what is above is kept, and asking again gets the rest. */
function cutOffLine(x) {
  const again = x.askAgain
    ? h("button.link-button.ask-again", { type: "button", onclick: () => x.askAgain() }, "Ask again")
    : "Ask again";
  return h("p.ask-cut-off", { role: "note" },
    h("span.ask-cut-glyph", { "aria-hidden": "true" }, "⋯"),
    h("span", "The answer was cut off. ", again, " to get the rest."),
    x.cutReason ? h("span.ask-cut-reason", x.cutReason) : null);
}

/**
 * Draw (or redraw) exchange `x` into `el`. `x`: {question, case, unconfirmed, sources, answer, answered,
 * reason, error, streaming, stopped, cutOff, cutReason, askAgain, noModel, cited, suggest,
 * navigate}.
 */
export function drawExchange(el, x) {
  const answerEl = h("div.ask-answer.prose", { "aria-live": x.streaming ? "polite" : null });
  const pending = x.case === undefined || x.case === null;
  if (x.answer) {
    renderMarkdown(answerEl, x.answer, { streaming: x.streaming });
    linkMarkers(answerEl, x.sources || []);
  } else if (x.streaming) {
    answerEl.append(h("p.muted.ask-wait", pending ? "Searching your material…" : "Writing the answer…",
      h("span.caret", { "aria-hidden": "true" })));
  }
  const sources = x.noModel && x.passages?.length ? x.passages : x.sources || [];
  const cited = new Set(x.cited || []);
  // Far from the question (NO_MATCH, not unconfirmed) the list is only the nearest there is.
  const listed = !x.noModel ? "Passages" : x.case === "NO_MATCH" && !x.unconfirmed ? "Nearest passages" : "Best-matching passages";
  const passages = sources.length ? h("section.ask-passages", { "aria-label": x.noModel ? listed : "Passages used" },
    h("h3.ask-passages-title", listed),
    h("ol", sources.map((p) => passageItem(p, cited.has(p.n))))) : null;
  replace(el,
    h("div.ask-q", h("p.msg-who", "You asked"), h("p.ask-q-text", x.question)),
    pending ? null : caseLine(x.case, x),
    x.noModel ? noModelNote(x.reason) : null,
    answerEl.childNodes.length ? answerEl : null,
    x.streaming ? null : moments(x),
    x.stopped ? h("p.small.muted.ask-stopped", "Stopped — the answer above is incomplete.") : null,
    x.cutOff && !x.streaming ? cutOffLine(x) : null,
    x.error ? h("div.inline-error", { role: "alert" }, h("p", x.error.message || "The answer failed."),
      x.error.kind === "auth" || x.error.kind === "not_configured"
        ? h("a.button-link", { href: "#/settings" }, "Open settings") : null) : null,
    passages);
  el.dataset.state = x.streaming ? "streaming" : x.error ? "error" : x.cutOff ? "cut-off"
    : x.noModel ? "no-model" : "done";
  return el;
}

/**
 * A stored exchange (``GET /api/asks/{id}``) as drawExchange takes it. `cut_off` (with
 * `complete: false` when the app died mid-answer) says the answer broke off: the words kept
 * are shown with the cut-off line; Stop keeps its own line.
 */
export function fromRecord(r) {
  const stopped = r.reason === "stopped before the answer finished";
  const cutOff = Boolean(r.cut_off || r.complete === false) && !stopped;
  const noModel = !r.answered && !r.answer && r.reason && !stopped && !cutOff;
  // The model's error is worth a word; a crash's reason says only what the line says.
  const cutReason = cutOff && r.complete !== false ? r.reason : null;
  const cited = [...(r.answer || "").matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
  return { question: r.question, case: r.case, unconfirmed: Boolean(r.unconfirmed), sources: r.sources, passages: r.passages, answer: r.answer,
    answered: r.answered, reason: r.reason, noModel, stopped, cutOff, cutReason, cited, streaming: false };
}
