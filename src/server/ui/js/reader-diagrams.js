// Mermaid diagrams in the reader: each ```mermaid block of a note is drawn by the sandboxed
// diagram frame (diagram-frame.html, loaded the first time a note has one) and shown as a
// picture, its text one click away; a diagram that cannot be drawn stays as its code with a
// plain line saying so. The app page never runs mermaid: its SVG styles stay out of the page.

import { h } from "./dom.js";

const WAIT_MS = 30_000;
let frame = null;
let ready = null;
const pending = new Map();
let next = 0;

function drawer() {
  if (ready) return ready;
  frame = h("iframe.diagram-frame", {
    src: "/diagram-frame.html", sandbox: "allow-scripts", title: "Diagram drawing",
    "aria-hidden": "true", tabindex: "-1",
  });
  ready = new Promise((resolve) => {
    addEventListener("message", (event) => {
      if (event.source !== frame.contentWindow || !event.data) return;
      if (event.data.ready) { resolve(); return; }
      const waiting = pending.get(event.data.id);
      pending.delete(event.data.id);
      waiting?.(event.data);
    });
  });
  document.body.append(frame);
  return ready;
}

function draw(text) {
  return new Promise((resolve) => {
    const id = (next += 1);
    const timer = setTimeout(() => { pending.delete(id); resolve({ error: "it took too long to draw" }); }, WAIT_MS);
    pending.set(id, (reply) => { clearTimeout(timer); resolve(reply); });
    frame.contentWindow.postMessage({ id, text }, "*");  // the frame's origin is opaque
  });
}

function picture(svg, text) {
  const url = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
  const first = text.trim().split("\n")[0].trim();
  return h("figure.diagram",
    h("img.diagram-picture", { src: url, alt: `Diagram (${first})` }),
    h("details.diagram-text", h("summary", "Diagram as text"),
      h("pre.code", { tabindex: "0" }, h("code", text))));
}

/** Draw every mermaid block in `root`; resolves when each is a picture or has said why not. */
export async function drawDiagrams(root) {
  const blocks = [...root.querySelectorAll("pre > code.language-mermaid")];
  if (!blocks.length) return;
  root.dataset.diagrams = "drawing";
  await drawer();
  for (const code of blocks) {
    const pre = code.parentElement;
    const text = code.textContent;
    const reply = await draw(text);
    if (!pre.isConnected) return;  // the learner moved on
    if (reply.svg) {
      pre.replaceWith(picture(reply.svg, text));
    } else {
      pre.classList.add("diagram-failed");
      pre.after(h("p.muted.small.diagram-note",
        "This diagram could not be drawn, so its text is shown as written."));
    }
  }
  root.dataset.diagrams = "done";
}
