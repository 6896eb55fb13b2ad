// How a review card reads: its prompt (a cloze's blank a visible, labelled gap) and, once shown,
// its answer (the gap filled in place) with the quote it rests on when that says more.

import { h, replace } from "./dom.js";
import { renderMarkdown } from "./markdown.js";

const BLANK = "_____";
const HOLE = "\uE000";  // stands in for the blank while the Markdown is rendered
const CLOZE_LEAD = /^Fill in the blank:\s*/;

/** The card's prompt, rendered: a cloze without its "Fill in the blank:" lead. */
export function renderPrompt(card) {
  const prompt = h("div.review-prompt.prose");
  const text = card.kind === "cloze" ? card.prompt.replace(CLOZE_LEAD, "") : card.prompt;
  renderMarkdown(prompt, text.replaceAll(BLANK, HOLE));
  markBlanks(prompt);
  return prompt;
}

/** Turn each stand-in for the blank into a visible, labelled gap. */
function markBlanks(root) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const hits = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.nodeValue.includes(HOLE)) hits.push(node);
  }
  for (const node of hits) {
    const parts = node.nodeValue.split(HOLE);
    const out = [];
    parts.forEach((part, i) => {
      // Read aloud as "blank" (a hidden word: a plain span may not carry an aria-label).
      if (i) out.push(h("span.blank", h("span.visually-hidden", "blank"), "\u00a0"));
      if (part) out.push(document.createTextNode(part));
    });
    node.replaceWith(...out);
  }
}

/** The answer: a cloze's gap filled in place (and the term said once more), a recall prompt's
 * statement; the quote it rests on when that says more. */
export function fillAnswer(answer, prompt, card) {
  const parts = [];
  if (card.kind === "cloze") {
    for (const gap of prompt.querySelectorAll(".blank")) {
      gap.textContent = card.answer;
      gap.classList.add("filled");
    }
    parts.push(h("p.review-term", h("span.review-label", "Answer"), h("strong", card.answer)));
  } else {
    const text = h("div.review-text.prose");
    renderMarkdown(text, card.answer || card.text);
    parts.push(text);
  }
  const quote = (card.evidence || "").trim();
  const said = new Set([card.text, card.answer, prompt.textContent].map(norm));
  if (quote && !said.has(norm(quote))) {
    const said = h("blockquote.review-quote.prose");
    renderMarkdown(said, quote);
    parts.push(h("div.review-source", h("span.review-label", "Where it came from"), said));
  }
  replace(answer, parts);
}

function norm(text) {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}
