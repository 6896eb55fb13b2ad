// Studyhall's window: checks the server, then mounts the sidebar, the activity strip and the
// routed view (home graph, a session, settings). Everything goes through /api on this origin.

import { api } from "./js/api.js";
import { h, replace } from "./js/dom.js";
import { currentView, route, start } from "./js/router.js";
import { mountSidebar } from "./js/sidebar.js";
import { mountActivity } from "./js/activity.js";
import { bindShortcuts } from "./js/shortcuts.js";
import { applyTheme, watchSystemTheme } from "./js/theme.js";
import { refreshChats, refreshSettings } from "./js/store.js";
import { forgetEarlyMap, mountHome } from "./js/home.js";
import { mountSession } from "./js/session.js";
import { mountSettings } from "./js/settings.js";
import { mountReview } from "./js/review.js";
import { mountStats } from "./js/stats.js";
import { mountAskScreen } from "./js/ask.js";
import { mountSources } from "./js/sources.js";
import { mountReader } from "./js/reader.js";
import { mountArtifacts } from "./js/artifacts-view.js";
import { mountToday, openTodayFirst } from "./js/today.js";
import { mountGoals } from "./js/goals.js";

applyTheme();
watchSystemTheme();

async function checkHealth() {
  const status = document.getElementById("status");
  try {
    const body = await api.get("/api/health");
    document.body.dataset.health = body.ok ? "ok" : "bad";
    document.body.dataset.version = body.version;
    return true;
  } catch (error) {
    document.body.dataset.health = "error";
    replace(status, error.message || "Cannot reach the Studyhall server.");
    status.className = "boot bad";
    return false;
  }
}

async function boot() {
  if (!(await checkHealth())) return;
  const main = document.getElementById("main");
  const dock = document.getElementById("dock");
  route(/^\/$/, mountHome);
  route(/^\/today$/, mountToday);
  route(/^\/session\/(?<id>[A-Za-z0-9_-]+)$/, mountSession);
  route(/^\/settings$/, mountSettings);
  route(/^\/review$/, mountReview);
  route(/^\/stats$/, mountStats);
  route(/^\/goals$/, mountGoals);
  route(/^\/ask$/, mountAskScreen);
  route(/^\/sources$/, mountSources);
  route(/^\/sources\/(?<id>[A-Za-z0-9_-]+)$/, mountReader);
  route(/^\/artifacts(?:\/(?<id>[A-Za-z0-9_.:-]+))?$/, mountArtifacts);
  mountSidebar(document.getElementById("sidebar"));
  mountActivity(document.getElementById("activity"));
  bindShortcuts(currentView);
  bindPanels();
  await Promise.all([refreshSettings(), refreshChats(), openTodayFirst()]);
  await start({ main, dock });
  forgetEarlyMap();  // taken already if Home opened first; else stale by the time Home opens
  document.body.dataset.ready = "1";
}

/** The sidebar and the dock fold away (buttons on the window's edges). */
function bindPanels() {
  const shell = document.getElementById("shell");
  const bar = document.getElementById("bottom-bar");
  const toggle = (name, label) => h("button.panel-toggle", {
    type: "button", class: `toggle-${name}`, "aria-label": label, title: label,
    "aria-pressed": "false",
    onclick: (e) => {
      const folded = shell.classList.toggle(`no-${name}`);
      e.currentTarget.setAttribute("aria-pressed", folded ? "true" : "false");
    },
  }, h("span", { "aria-hidden": "true" }, name === "sidebar" ? "◧" : "◨"));
  bar.prepend(toggle("sidebar", "Fold the sidebar"));
  bar.append(toggle("dock", "Fold the details panel"));
}

boot();
