// Safe Markdown for everything a model writes: markdown-it with raw HTML OFF (a model's
// "<script>" is shown as text), then DOMPurify over the result as a second wall. Code is
// highlighted (highlight.js), maths becomes MathML (KaTeX, loaded on first use: MathML needs no
// inline styles, which the page's CSP forbids). Remote images are never fetched.

import markdownit from "../vendor/markdown-it.js";
import DOMPurify from "../vendor/purify.js";
import hljs from "../vendor/highlight.js";
import { mathPlugin } from "./math.js";
import { calloutPlugin } from "./callouts.js";

const md = markdownit({
  html: false,        // raw HTML from a model is text, never markup
  linkify: true,
  breaks: false,
  typographer: false,
  highlight(code, lang) {
    const language = (lang || "").trim().split(/\s+/)[0].toLowerCase();
    if (language === "mermaid") {  // the reader draws it (reader-diagrams.js); elsewhere it is code
      return `<pre class="code" tabindex="0"><code class="language-mermaid">${md.utils.escapeHtml(code)}</code></pre>`;
    }
    try {
      if (language && hljs.getLanguage(language)) {
        return `<pre class="code" tabindex="0"><code class="hljs language-${language}">${hljs.highlight(code, { language, ignoreIllegals: true }).value}</code></pre>`;
      }
    } catch (error) {
      console.warn("highlight failed", error);
    }
    return `<pre class="code" tabindex="0"><code class="hljs">${md.utils.escapeHtml(code)}</code></pre>`;
  },
});
md.use(mathPlugin);
md.use(calloutPlugin);

// A note's own pictures come from the reader's image route (the server checked the path is
// inside the vault); only the reader asks for them, never a model's words.
const VAULT_IMAGE = /^\/api\/sources\/[^/?#]+\/image\?path=[^#]+(#w=(\d{1,4})(?:&h=(\d{1,4}))?)?$/;
let vaultImages = false;

// Images: only inline data images are shown; a remote URL becomes a plain link (no request).
md.renderer.rules.image = (tokens, idx, options, env, self) => {
  const token = tokens[idx];
  const src = token.attrGet("src") || "";
  const alt = self.renderInlineAsText(token.children || [], options, env) || "image";
  if (/^data:image\/(png|jpe?g|gif|webp|svg\+xml);/i.test(src)) {
    return `<img src="${md.utils.escapeHtml(src)}" alt="${md.utils.escapeHtml(alt)}">`;
  }
  const vault = env?.vaultImages ? VAULT_IMAGE.exec(src) : null;
  if (vault) {
    const [, size, width, height] = vault;
    const sized = (width ? ` width="${width}"` : "") + (height ? ` height="${height}"` : "");
    const plain = size ? src.slice(0, -size.length) : src;
    return `<img class="vault-image" src="${md.utils.escapeHtml(plain)}" alt="${md.utils.escapeHtml(alt)}"${sized} loading="lazy">`;
  }
  return `<a href="${md.utils.escapeHtml(src)}" class="remote-image">[image: ${md.utils.escapeHtml(alt)}]</a>`;
};

const PURIFY = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "iframe", "object", "embed", "link", "meta", "base"],
  FORBID_ATTR: ["style", "srcset", "formaction"],
  ALLOW_DATA_ATTR: true,
};

DOMPurify.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "A") {
    const href = node.getAttribute("href") || "";
    if (!/^(https?:|mailto:|#)/i.test(href)) node.removeAttribute("href");
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener noreferrer");
  }
  const src = node.tagName === "IMG" ? node.getAttribute("src") || "" : "";
  if (node.tagName === "IMG" && !/^data:image\//i.test(src) && !(vaultImages && VAULT_IMAGE.test(src))) {
    node.remove();
  }
});

/** Model Markdown -> sanitized HTML string. `vaultImages`: a note's own pictures are shown. */
export function toSafeHtml(text, { vaultImages: pictures = false } = {}) {
  vaultImages = pictures;
  try {
    return DOMPurify.sanitize(md.render(String(text ?? ""), { vaultImages: pictures }), PURIFY);
  } finally {
    vaultImages = false;
  }
}

/** Render into `el`; while `streaming`, a caret follows the last word. */
export function renderMarkdown(el, text, { streaming = false, vaultImages = false } = {}) {
  el.innerHTML = toSafeHtml(text, { vaultImages });
  if (streaming) {
    const caret = document.createElement("span");
    caret.className = "caret";
    caret.setAttribute("aria-hidden", "true");
    lastBlock(el).append(caret);
  }
  typesetMath(el);
  return el;
}

function lastBlock(el) {
  let node = el;
  for (;;) {
    const last = node.lastElementChild;
    if (!last || ["PRE", "TABLE", "SPAN", "CODE", "MATH"].includes(last.tagName)) return node;
    if (last.tagName === "UL" || last.tagName === "OL" || last.tagName === "LI" ||
        last.tagName === "P" || last.tagName === "BLOCKQUOTE" || /^H[1-6]$/.test(last.tagName)) {
      node = last;
      continue;
    }
    return node;
  }
}

// --- maths: KaTeX to MathML, imported the first time a formula appears ---------------------

let katex = null;
let loading = null;
const cache = new Map();

const MATH_PURIFY = {
  USE_PROFILES: { mathMl: true },
  ADD_TAGS: ["semantics", "annotation"],
  FORBID_ATTR: ["style", "href", "xlink:href"],
};

export function typesetMath(root) {
  const nodes = root.querySelectorAll(".math[data-tex]:not([data-done])");
  if (!nodes.length) return;
  if (!katex) {
    loading ??= import("../vendor/katex.js").then((mod) => { katex = mod.default; });
    loading.then(() => typesetMath(root)).catch((error) => console.warn("maths unavailable", error));
    return;
  }
  for (const node of nodes) {
    const tex = node.dataset.tex;
    const display = node.classList.contains("display");
    const key = `${display ? "D" : "I"}${tex}`;
    if (!cache.has(key)) {
      const raw = katex.renderToString(tex, {
        output: "mathml", displayMode: display, throwOnError: false, trust: false,
        maxExpand: 500, maxSize: 20, strict: "ignore",
      });
      cache.set(key, DOMPurify.sanitize(raw, MATH_PURIFY));
      if (cache.size > 2000) cache.delete(cache.keys().next().value);
    }
    node.innerHTML = cache.get(key);
    node.dataset.done = "1";
    node.setAttribute("title", tex);
  }
}
