// The sidebar: Today, Home, Review (N due today), Sources, Ask, Artifacts, Goals, Stats, the sessions (newest first), new session,
// notes import, settings, theme.

import { h, relativeTime, replace } from "./dom.js";
import { currentRoute } from "./router.js";
import { on, refreshChats, refreshReviewCount, state } from "./store.js";
import { openImport, openNewSession } from "./dialogs.js";
import { cycleTheme, themeLabel } from "./theme.js";

export function mountSidebar(nav) {
  const sessions = h("ul.session-list", { "aria-label": "Sessions" });
  const reviewCount = h("span.nav-count", { hidden: true });
  const reviewDue = h("span.visually-hidden");  // the name says what the number is, and keeps "Review 3" in it
  const reviewLink = h("a.nav-item.review-link", { href: "#/review", dataset: { route: "/review" } },
    h("span.nav-icon", { "aria-hidden": "true" }, "↻"), "Review", reviewCount, reviewDue);
  const drawReview = () => {
    const n = state.reviewDue;
    reviewCount.textContent = n ? String(n) : "";
    reviewCount.hidden = !n;
    reviewDue.textContent = n ? " due today" : "";
    reviewLink.title = n ? `${n} due today` : "Nothing due today";
  };
  const themeButton = h("button.nav-item.theme-toggle", { type: "button", onclick: () => {
    cycleTheme();
    themeButton.lastChild.textContent = themeLabel();
  } }, h("span.nav-icon", { "aria-hidden": "true" }, "◐"), h("span", themeLabel()));
  replace(nav,
    h("div.brand", h("span.brand-mark", { "aria-hidden": "true" }), "Studyhall"),
    h("a.nav-item.today-link", { href: "#/today", dataset: { route: "/today" } }, h("span.nav-icon", { "aria-hidden": "true" }, "☀"), "Today"),
    h("a.nav-item", { href: "#/", dataset: { route: "/" } }, h("span.nav-icon", { "aria-hidden": "true" }, "◉"), "Home"),
    reviewLink,
    h("a.nav-item.sources-link", { href: "#/sources", dataset: { route: "/sources" } },
      h("span.nav-icon", { "aria-hidden": "true" }, "▤"), "Sources"),
    h("a.nav-item.ask-link", { href: "#/ask", dataset: { route: "/ask" } },
      h("span.nav-icon", { "aria-hidden": "true" }, "?"), "Ask"),
    h("a.nav-item.artifacts-link", { href: "#/artifacts", dataset: { route: "/artifacts" } },
      h("span.nav-icon", { "aria-hidden": "true" }, "✎"), "Artifacts"),
    h("a.nav-item.goals-link", { href: "#/goals", dataset: { route: "/goals" } },
      h("span.nav-icon", { "aria-hidden": "true" }, "◎"), "Goals"),
    h("a.nav-item", { href: "#/stats", dataset: { route: "/stats" } }, h("span.nav-icon", { "aria-hidden": "true" }, "∿"), "Stats"),
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
      const within = ["/sources", "/artifacts"].includes(link.dataset.route) && current.startsWith(`${link.dataset.route}/`);
      link.setAttribute("aria-current", link.dataset.route === current || within ? "page" : "false");
    }
  };
  on("chats", draw);
  on("review", drawReview);
  document.addEventListener("studyhall:route", () => {
    draw();
    refreshReviewCount();  // a session's quiz or another window's grades may have changed it
  });
  draw();
  refreshChats();
  refreshReviewCount();
}
