// A modal dialog: shown at once, closed by a click on its backdrop, removed when closed.

import { h } from "./dom.js";

export function dialog(label, ...children) {
  const el = h("dialog.modal", { "aria-label": label }, ...children);
  el.addEventListener("close", () => el.remove());
  el.addEventListener("click", (e) => {
    if (e.target === el) el.close();  // a click on the backdrop
  });
  document.body.append(el);
  el.showModal();
  return el;
}
