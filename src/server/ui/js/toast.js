// Short notices at the bottom corner (a finished import, an extraction result); each can carry
// one action. They leave on their own; errors stay until dismissed.

import { h } from "./dom.js";

export function toast(message, { kind = "info", action = null, timeout = 6000 } = {}) {
  const host = document.getElementById("toasts");
  if (!host) return;
  const close = () => el.remove();
  const el = h("div.toast", { class: `toast-${kind}`, role: kind === "error" ? "alert" : "status" },
    h("span", message),
    action ? h("button.link-button", { type: "button", onclick: () => { action[1](); close(); } }, action[0]) : null,
    h("button.icon-button.toast-close", { type: "button", "aria-label": "Dismiss", onclick: close }, "×"));
  host.append(el);
  if (kind !== "error") setTimeout(close, timeout);
}
