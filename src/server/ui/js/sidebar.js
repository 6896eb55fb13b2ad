// The sidebar: Home, the sessions (newest first), new session, notes import, settings, theme.

import { h, relativeTime, replace } from "./dom.js";
import { currentRoute } from "./router.js";
import { on, refreshChats, state } from "./store.js";
import { openImport, openNewSession } from "./dialogs.js";
import { cycleTheme, themeLabel } from "./theme.js";

export function mountSidebar(nav) {
  const sessions = h("ul.session-list", { "aria-label": "Sessions" });
  const themeButton = h("button.nav-item.theme-toggle", { type: "button", onclick: () => {
    cycleTheme();
    themeButton.lastChild.textContent = themeLabel();
  } }, h("span.nav-icon", { "aria-hidden": "true" }, "◐"), h("span", themeLabel()));
  replace(nav,
    h("div.brand", h("span.brand-mark", { "aria-hidden": "true" }), "Studyhall"),
    h("a.nav-item", { href: "#/", dataset: { route: "/" } }, h("span.nav-icon", { "aria-hidden": "true" }, "◉"), "Home"),
    h("button.nav-item.new-session", { type: "button", onclick: () => openNewSession(), title: "New session (n)" },
      h("span.nav-icon", { "aria-hidden": "true" }, "+"), "New session", h("kbd.nav-kbd", "n")),
    h("h2.nav-heading", { id: "sessions-heading" }, "Sessions"),
    sessions,
    h("div.nav-bottom",
      h("button.nav-item", { type: "button", onclick: () => openImport() },
        h("span.nav-icon", { "aria-hidden": "true" }, "↥"), "Import notes"),
      h("a.nav-item", { href: "#/settings", dataset: { route: "/settings" } },
        h("span.nav-icon", { "aria-hidden": "true" }, "⚙"), "Settings"),
      themeButton),
  );
  const draw = () => {
    const current = currentRoute();
    replace(sessions, state.chats.length ? state.chats.map((c) => {
      const route = `/session/${c.id}`;
      return h("li", h("a.session-link", {
        href: `#${route}`, "aria-current": current === route ? "page" : null,
        title: c.topic || c.title || "",
      }, h("span.session-name", c.title || c.topic || "New session"),
      h("span.session-meta", c.turn_running ? "answering…" : relativeTime(c.updated_at))));
    }) : h("li.muted.small.empty-sessions", "No sessions yet."));
    for (const link of nav.querySelectorAll("a.nav-item")) {
      link.setAttribute("aria-current", link.dataset.route === current ? "page" : "false");
    }
  };
  on("chats", draw);
  document.addEventListener("studyhall:route", draw);
  draw();
  refreshChats();
}
