// Obsidian callouts for markdown-it: a quotation that opens with `[!type] Title` becomes a
// callout box (its kind as a class, its title as a heading line, its body as Markdown);
// `[!type]-` is folded (a closed <details>), `[!type]+` foldable and open. Nested callouts are
// nested quotations, so they come out nested. No raw HTML is written: the title stays Markdown.

const HEAD = /^\[!([A-Za-z][\w-]*)\]([+-]?)[ \t]*(.*)$/;

// Obsidian's aliases, so each kind has one colour and one icon.
const KINDS = {
  note: "note", abstract: "abstract", summary: "abstract", tldr: "abstract", info: "info",
  todo: "todo", tip: "tip", hint: "tip", important: "tip", success: "success", check: "success",
  done: "success", question: "question", help: "question", faq: "question", warning: "warning",
  caution: "warning", attention: "warning", failure: "failure", fail: "failure",
  missing: "failure", danger: "danger", error: "danger", bug: "bug", example: "example",
  quote: "quote", cite: "quote",
};

function titled(kind) {
  return kind.charAt(0).toUpperCase() + kind.slice(1).toLowerCase();
}

function closeOf(tokens, open) {
  let depth = 0;
  for (let i = open; i < tokens.length; i += 1) {
    if (tokens[i].type === "blockquote_open") depth += 1;
    if (tokens[i].type === "blockquote_close" && --depth === 0) return i;
  }
  return -1;
}

function callouts(state) {
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i += 1) {
    if (tokens[i].type !== "blockquote_open") continue;
    const [para, inline] = [tokens[i + 1], tokens[i + 2]];
    if (para?.type !== "paragraph_open" || inline?.type !== "inline") continue;
    const [first, ...rest] = inline.content.split("\n");
    const m = HEAD.exec(first);
    const end = closeOf(tokens, i);
    if (!m || end < 0) continue;
    const [, raw, fold, title] = m;
    const kind = KINDS[raw.toLowerCase()] || "note";
    const open = tokens[i];
    open.type = "callout_open";
    open.meta = { kind, fold, raw: raw.toLowerCase() };
    tokens[end].type = "callout_close";
    tokens[end].meta = { fold };
    const head = new state.Token("callout_title_open", "", 1);
    const text = new state.Token("inline", "", 0);
    text.content = title.trim() || titled(raw);
    text.map = inline.map;
    text.children = [];
    const headEnd = new state.Token("callout_title_close", "", -1);
    headEnd.meta = { fold };
    const body = rest.join("\n").trim();
    if (body) {
      inline.content = body;
      tokens.splice(i + 1, 0, head, text, headEnd);
    } else {  // a title alone: its paragraph goes
      tokens.splice(i + 1, 3, head, text, headEnd);
    }
  }
}

export function calloutPlugin(md) {
  md.core.ruler.after("block", "callouts", callouts);
  const esc = md.utils.escapeHtml;
  md.renderer.rules.callout_open = (tokens, idx) => {
    const { kind, fold, raw } = tokens[idx].meta;
    const cls = `callout callout-${kind}`;
    if (fold) return `<details class="${cls}" data-callout="${esc(raw)}"${fold === "+" ? " open" : ""}>\n`;
    return `<div class="${cls}" data-callout="${esc(raw)}" role="note">\n`;
  };
  md.renderer.rules.callout_close = (tokens, idx) => (tokens[idx].meta.fold ? "</details>\n" : "</div>\n");
  md.renderer.rules.callout_title_open = (tokens, idx) =>
    (tokens[idx + 2].meta.fold ? "<summary class=\"callout-title\">" : "<p class=\"callout-title\">");
  md.renderer.rules.callout_title_close = (tokens, idx) =>
    (tokens[idx].meta.fold ? "</summary>\n" : "</p>\n");
}
