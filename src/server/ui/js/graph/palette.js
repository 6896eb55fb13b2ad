// Colours for the canvas, read from the same CSS tokens the rest of the window uses, so the
// graph follows the light/dark theme. Order of `states` matches model.STATES.

export function palette() {
  const css = getComputedStyle(document.documentElement);
  const v = (name, fallback) => (css.getPropertyValue(name).trim() || fallback);
  return {
    bg: v("--canvas", "#f6f5f1"),
    ink: v("--ink", "#1f2328"),
    ink2: v("--ink-2", "#4a4f57"),
    ink3: v("--ink-3", "#7b8089"),
    edge: v("--graph-edge", "rgba(80,80,80,0.18)"),
    hull: v("--graph-hull", "rgba(46,125,91,0.06)"),
    accent: v("--accent", "#2e7d5b"),
    mark: v("--mark", "#3b6fd1"),
    states: [
      v("--state-solid", "#2e7d5b"),
      v("--state-shaky", "#c98a1b"),
      v("--state-not-tried", "#9aa0a6"),
      v("--state-corrected", "#c98a1b"),
    ],
  };
}
