// While a turn runs, say what the learner is waiting for. Before the model's first byte, a
// model on this computer is most likely loading (it can take minutes the first time): say so,
// with the seconds waited, while Stop stays at hand. A hosted model, or a silence after the
// first byte, keeps the plain "Waiting for the model… N s". The timeouts stay as set in
// Settings → Timeouts; this only names the wait.

import { api } from "./api.js";
import { state } from "./store.js";

const BYTES = new Set(["text-delta", "tool-call", "tool-result"]);

function onThisComputer(settings) {
  const local = settings?.privacy?.local_roles || [];
  return local.includes("prober") || local.includes("teacher");
}

export function modelWait(status, isStreaming) {
  let heard = 0;
  let started = 0;
  let anyByte = false;
  let ticker = 0;
  let local = onThisComputer(state.settings);
  // Read quietly (no "settings" event: listeners would redraw the screen mid-turn).
  if (!state.settings) api.get("/api/settings").then((s) => { local = onThisComputer(s); }, () => {});

  function tick() {
    const now = Date.now();
    if (!anyByte && local) {
      const waited = Math.round((now - started) / 1000);
      if (waited >= 2) status.textContent = `Loading the model on your computer… ${waited} s (press Stop to give up)`;
      return;
    }
    const silent = Math.round((now - heard) / 1000);
    if (silent < 4) return;
    status.textContent = `Waiting for the model… ${silent} s` +
      (silent >= 20 ? " (a model on this computer may take a few minutes to load the first time)" : "");
  }

  return {
    start() {
      clearInterval(ticker);
      started = heard = Date.now();
      anyByte = false;
      if (state.settings) local = onThisComputer(state.settings);
      ticker = setInterval(tick, 1000);
    },
    stop() {
      clearInterval(ticker);
      ticker = 0;
    },
    heard(event) {
      heard = Date.now();
      if (BYTES.has(event)) anyByte = true;
      if (isStreaming() && (anyByte || !local)) status.textContent = "The teacher is writing…";
    },
  };
}
