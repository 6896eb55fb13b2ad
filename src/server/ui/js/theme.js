// Light and dark themes from the same tokens: "system" follows the OS; the choice is kept.

import { emit } from "./store.js";

const KEY = "studyhall.theme";
const ORDER = ["system", "light", "dark"];

export function currentTheme() {
  const saved = localStorage.getItem(KEY);
  return ORDER.includes(saved) ? saved : "system";
}

export function applyTheme(choice = currentTheme()) {
  const dark = choice === "dark" || (choice === "system" && matchMedia("(prefers-color-scheme: dark)").matches);
  document.documentElement.dataset.theme = dark ? "dark" : "light";
  emit("theme", document.documentElement.dataset.theme);
}

export function cycleTheme() {
  const next = ORDER[(ORDER.indexOf(currentTheme()) + 1) % ORDER.length];
  try {
    localStorage.setItem(KEY, next);
  } catch { /* not remembered */ }
  applyTheme(next);
}

export function themeLabel() {
  return { system: "Theme: system", light: "Theme: light", dark: "Theme: dark" }[currentTheme()];
}

export function watchSystemTheme() {
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => {
    if (currentTheme() === "system") applyTheme();
  });
}
