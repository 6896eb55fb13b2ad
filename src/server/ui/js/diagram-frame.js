// Inside the sandboxed diagram frame (diagram-frame.html): draws one mermaid diagram per
// message from the reader and posts back its SVG text or why it could not be drawn. A classic
// script, not a module: the frame's origin is opaque, and modules would need CORS.
"use strict";

(() => {
  const app = new URL(location.href).origin;  // the reader's origin: replies go nowhere else
  globalThis.mermaid.initialize({
    startOnLoad: false,
    securityLevel: "strict",   // no click handlers, labels sanitised, no HTML in labels
    theme: "neutral",
    htmlLabels: false,         // pure SVG text: the picture is shown as an <img>
    flowchart: { htmlLabels: false },
    fontFamily: "system-ui, sans-serif",
  });
  let queue = Promise.resolve();
  let n = 0;
  addEventListener("message", (event) => {
    if (event.source !== parent || !event.data || typeof event.data.text !== "string") return;
    const { id, text } = event.data;
    queue = queue.then(async () => {
      try {
        await globalThis.mermaid.parse(text);
        const { svg } = await globalThis.mermaid.render(`diagram-${(n += 1)}`, text);
        parent.postMessage({ id, svg }, app);
      } catch (error) {
        parent.postMessage({ id, error: String(error?.message || error).split("\n")[0].slice(0, 200) }, app);
      }
    });
  });
  parent.postMessage({ ready: true }, app);
})();
