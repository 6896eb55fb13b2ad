// markdown-it rules for maths: $inline$, \(inline\), $$display$$ and \[display\].
// They emit placeholders (<span class="math" data-tex>) with the TeX escaped; markdown.js
// typesets them after sanitizing. "$5 and $10" stays money: an opening $ must be followed by
// a non-space and a closing $ preceded by one and not followed by a digit (Pandoc's rule).

function inlineMath(state, silent) {
  const src = state.src;
  const start = state.pos;
  let open, close, display = false;
  if (src.startsWith("\\(", start)) {
    open = "\\(";
    close = "\\)";
  } else if (src.startsWith("\\[", start)) {
    open = "\\[";
    close = "\\]";
    display = true;
  } else if (src.startsWith("$$", start)) {
    open = close = "$$";
    display = true;
  } else if (src[start] === "$") {
    open = close = "$";
  } else {
    return false;
  }
  const from = start + open.length;
  let end = src.indexOf(close, from);
  if (open === "$") {
    if (/\s/.test(src[from] || " ")) return false;
    while (end > 0 && (/\s/.test(src[end - 1]) || /\d/.test(src[end + 1] || "") || src[end - 1] === "\\")) {
      end = src.indexOf(close, end + 1);
    }
  }
  if (end < 0 || end === from) return false;
  if (!silent) {
    const token = state.push("math", "span", 0);
    token.content = src.slice(from, end);
    token.meta = { display };
  }
  state.pos = end + close.length;
  return true;
}

function blockMath(state, startLine, endLine, silent) {
  const begin = state.bMarks[startLine] + state.tShift[startLine];
  const max = state.eMarks[startLine];
  const line = state.src.slice(begin, max);
  let open, close;
  if (line.startsWith("$$")) {
    open = close = "$$";
  } else if (line.startsWith("\\[")) {
    open = "\\[";
    close = "\\]";
  } else {
    return false;
  }
  let content = line.slice(open.length);
  let next = startLine;
  let found = false;
  if (content.trimEnd().endsWith(close) && content.trim().length >= close.length) {
    content = content.trimEnd().slice(0, -close.length);
    found = true;
  }
  while (!found) {
    next += 1;
    if (next >= endLine) return false;  // unclosed: leave it as text
    const text = state.src.slice(state.bMarks[next] + state.tShift[next], state.eMarks[next]);
    if (text.trimEnd().endsWith(close)) {
      content += `\n${text.trimEnd().slice(0, -close.length)}`;
      found = true;
    } else {
      content += `\n${text}`;
    }
  }
  if (silent) return true;
  const token = state.push("math", "div", 0);
  token.block = true;
  token.content = content.trim();
  token.meta = { display: true };
  token.map = [startLine, next + 1];
  state.line = next + 1;
  return true;
}

export function mathPlugin(md) {
  md.inline.ruler.before("escape", "math_inline", inlineMath);
  md.block.ruler.before("fence", "math_block", blockMath, { alt: ["paragraph", "reference", "blockquote", "list"] });
  md.renderer.rules.math = (tokens, idx) => {
    const token = tokens[idx];
    const tag = token.block ? "div" : "span";
    const cls = token.meta && token.meta.display ? "math display" : "math";
    const tex = md.utils.escapeHtml(token.content);
    return `<${tag} class="${cls}" data-tex="${tex}">${tex}</${tag}>${token.block ? "\n" : ""}`;
  };
}
