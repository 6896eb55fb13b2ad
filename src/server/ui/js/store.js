// Shared window state: the session list and the settings summary, with change events.
// Views read it and subscribe; only the functions here fetch it.

import { api } from "./api.js";

const listeners = new Map();

export const state = {
  chats: [],
  settings: null,
  graphCount: null,  // nodes in the graph, once known (the welcome screen needs it)
  reviewDue: null,  // cards in today's review queue, once known (the sidebar's "Review (N)")
};

export function on(event, fn) {
  if (!listeners.has(event)) listeners.set(event, new Set());
  listeners.get(event).add(fn);
  return () => listeners.get(event).delete(fn);
}

export function emit(event, detail) {
  for (const fn of listeners.get(event) || []) {
    try {
      fn(detail);
    } catch (error) {
      console.error(`[${event}]`, error);
    }
  }
}

export async function refreshChats() {
  try {
    state.chats = await api.get("/api/chats");
    emit("chats", state.chats);
  } catch (error) {
    console.warn("could not list sessions", error);
  }
  return state.chats;
}

/** Today's review count; the sidebar shows it, the review screen refreshes it after a grade. */
export async function refreshReviewCount() {
  try {
    const queue = await api.get("/api/review?limit=1");
    state.reviewDue = queue.counts.due_today;
    emit("review", state.reviewDue);
  } catch (error) {
    console.warn("could not count the reviews due", error);
  }
  return state.reviewDue;
}

export async function refreshSettings() {
  try {
    state.settings = await api.get("/api/settings");
    emit("settings", state.settings);
  } catch (error) {
    console.warn("could not read settings", error);
  }
  return state.settings;
}

/** Can a session run? A key, a local server, scripted models or keys in the environment. */
export function modelsReady(settings = state.settings) {
  if (!settings) return true;  // unknown: let the server say what is missing
  if (settings.scripted) return true;
  const teacher = settings.roles.find((r) => r.role === "teacher");
  const prober = settings.roles.find((r) => r.role === "prober");
  return !settings.needed_keys.some((p) => [teacher, prober].some((r) => r && needs(r, p)));
}

function needs(role, provider) {
  if (role.api_base) return role.api_base === provider;
  return role.model.split("/")[0].toLowerCase() === provider;
}
