// One artifact's content, drawn for reading and printing: notes as Markdown (maths, code),
// flashcards as cards that turn over to the answer and the quote backing it, a study plan as
// steps, a study guide with its FAQ, a mind map as an outline tree (no mermaid renderer is
// shipped and nothing is fetched: the tree the map carries is drawn as an indented outline).

import { h, plural } from "./dom.js";
import { renderMarkdown } from "./markdown.js";

export function prose(text, tag = "div.prose") {
  const el = h(tag);
  renderMarkdown(el, text || "");
  return el;
}

/** The body of an artifact of `kind` from its `content` (the kind's JSON). */
export function renderArtifactBody(kind, content) {
  const c = content || {};
  const draw = { notes, flashcards, study_plan: studyPlan, study_guide: studyGuide, mind_map: mindMap }[kind];
  const body = h("div.artifact-body", { dataset: { kind } });
  if (!draw) {
    body.append(h("p.muted", "This kind of study material cannot be shown here. Copy it as Markdown instead."));
    return body;
  }
  body.append(draw(c));
  return body;
}

function notes(c) {
  return h("div.artifact-notes", prose(c.markdown || ""));
}

// --- flashcards --------------------------------------------------------------------------------

function flashcards(c) {
  const cards = c.cards || [];
  const dropped = c.dropped || 0;
  const turnAll = h("button.small.turn-all", { type: "button", "aria-pressed": "false" }, "Show all answers");
  const list = h("ol.flip-cards", cards.map((card, i) => flipCard(card, i + 1, cards.length)));
  turnAll.addEventListener("click", () => {
    const show = turnAll.getAttribute("aria-pressed") !== "true";
    turnAll.setAttribute("aria-pressed", String(show));
    turnAll.textContent = show ? "Hide the answers" : "Show all answers";
    for (const card of list.querySelectorAll(".flip-card")) turn(card, show);
  });
  return h("div.artifact-cards",
    h("div.cards-bar",
      h("p.muted.small.cards-count", `${plural(cards.length, "card")} · click a card to turn it over`),
      cards.length ? turnAll : null),
    dropped > 0 ? droppedNote(dropped, c.dropped_reasons, "card") : null,
    list);
}

function flipCard(card, n, total) {
  const el = h("div.flip-card", { role: "button", tabindex: "0", "aria-pressed": "false",
    "aria-label": `Card ${n} of ${total}: ${card.front}. Press to see the answer.` },
  h("div.flip-face.flip-front", h("span.flip-side", "Question"), prose(card.front)),
  h("div.flip-face.flip-back", h("span.flip-side", "Answer"), prose(card.back),
    evidenceQuote(card)));
  const toggle = () => turn(el, el.getAttribute("aria-pressed") !== "true");
  el.addEventListener("click", (e) => {
    if (!e.target.closest("a")) toggle();
  });
  el.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      toggle();
    }
  });
  return h("li", el);
}

/** The quote an item rests on, and a link to where it is: the lecture at its second, the PDF
 * at its page, the note at its section, or the idea on the map. */
function evidenceQuote(item) {
  if (!item.evidence) return null;
  const at = item.evidence_place || {};
  let href = null;
  let label = null;
  if (at.source_id) {
    const anchor = at.anchor || "";
    const query = /^(t|page)=/.test(anchor) ? `?${anchor}` : anchor ? `?at=${encodeURIComponent(anchor)}` : "";
    href = `#/sources/${encodeURIComponent(at.source_id)}${query}`;
    const t = /^t=(\d+)/.exec(anchor);
    const where = t ? ` at ${Math.floor(Number(t[1]) / 60)}:${String(Number(t[1]) % 60).padStart(2, "0")}`
      : /^page=(\d+)/.test(anchor) ? `, page ${anchor.slice(5)}` : "";
    label = `Open “${at.title || "the source"}”${where}`;
  } else if (at.node_id) {
    href = `#/?node=${encodeURIComponent(at.node_id)}`;
    label = "Show it on your map";
  }
  return h("blockquote.evidence", h("span.visually-hidden", "Evidence: "), item.evidence,
    href ? h("a.evidence-place.small", { href, onclick: (e) => e.stopPropagation() }, label) : null);
}

function turn(card, show) {
  card.setAttribute("aria-pressed", String(show));
  card.classList.toggle("turned", show);
}

/** "Dropped 2 unbacked cards": what the check left out, and why when it said. */
function droppedNote(dropped, reasons, noun) {
  const why = (reasons || []).filter(Boolean);
  const what = noun === "card" ? ["its answer", "their answers"] : ["what it claimed", "what they claimed"];
  const line = `Dropped ${plural(dropped, `unbacked ${noun}`)}: ` + (dropped === 1
    ? `the passage it quoted does not say ${what[0]}.` : `the passages they quoted do not say ${what[1]}.`);
  if (!why.length) return h("p.small.dropped-note", line);
  return h("details.small.dropped-note", h("summary", line),
    h("ul", [...new Set(why)].slice(0, 8).map((r) => h("li", r))));
}

// --- study plan ----------------------------------------------------------------------------------

function studyPlan(c) {
  const steps = c.steps || [];
  const minutes = steps.reduce((n, s) => n + (s.minutes || 0), 0);
  return h("div.artifact-plan",
    c.goal ? h("p.plan-goal", h("strong", "Goal: "), c.goal) : null,
    minutes ? h("p.muted.small", `${plural(steps.length, "step")} · about ${duration(minutes)} in all`) : null,
    h("ol.plan-steps-full", steps.map((s) => h("li.plan-step",
      h("div.plan-step-head", h("strong", s.title), s.minutes ? h("span.muted.small", duration(s.minutes)) : null),
      s.detail ? prose(s.detail) : null))));
}

function duration(minutes) {
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? `${hours} h ${rest} min` : `${hours} h`;
}

// --- study guide -------------------------------------------------------------------------------

function studyGuide(c) {
  const ideas = c.key_ideas || [];
  const faq = c.faq || [];
  return h("div.artifact-guide",
    c.dropped > 0 ? droppedNote(c.dropped, c.dropped_reasons, "claim") : null,
    ideas.length ? h("section.guide-ideas", h("h2", "Key ideas"),
      h("ol.key-ideas", ideas.map((i) => h("li.key-idea", prose(i.idea),
        evidenceQuote(i))))) : null,
    faq.length ? h("section.guide-faq", h("h2", "Frequently asked questions"),
      h("div.faq-list", faq.map((q) => h("details.faq", { open: true },
        h("summary", q.question),
        prose(q.answer),
        evidenceQuote(q))))) : null);
}

// --- mind map ----------------------------------------------------------------------------------

function mindMap(c) {
  const tree = outlineOf(c);
  const source = c.mermaid || "";
  const leftOut = (c.dropped || 0) > 0 ? h("p.small.dropped-note",
    `${plural(c.dropped, "idea")} more than four levels deep ${c.dropped === 1 ? "was" : "were"} left out to keep the map readable.`) : null;
  return h("div.artifact-mindmap",
    leftOut,
    tree ? tree : h("p.muted", "This mind map has no outline to draw; its mermaid source is below."),
    source ? h("details.mermaid-source", { open: !tree },
      h("summary.small", "Mermaid source (paste it into any mermaid editor)"),
      h("pre.code", h("code", source))) : null);
}

/** The map's tree (the server grows it from the writer's ideas), as a nested outline. */
function outlineOf(c) {
  if (!c.root || typeof c.root !== "object") return null;
  return h("ul.mind-tree", { role: "tree", "aria-label": c.title || "Mind map" }, branch(c.root, 1));
}

function branch(node, level) {
  const kids = (node.children || []).filter(Boolean);
  return h("li.mind-node", { role: "treeitem", "aria-level": String(level), "aria-expanded": kids.length ? "true" : null,
    class: level === 1 ? "mind-root" : "" },
  node.node_id
    ? h("a.mind-label", { href: `#/?node=${encodeURIComponent(node.node_id)}`, title: "Show this topic in your graph" }, node.label || "")
    : h("span.mind-label", node.label || ""),
  kids.length ? h("ul", { role: "group" }, kids.map((k) => branch(k, level + 1))) : null);
}
