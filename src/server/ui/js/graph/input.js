// Pointer, wheel and keyboard on the graph canvas: drag pans, the wheel zooms around the
// cursor, a click selects, Shift/Ctrl/Cmd+click adds a node to the selection (or takes it out),
// a double click flies closer; from the keyboard arrows walk the nodes and Enter opens one
// (keyboard.js), Shift+arrows pan, +/-, 0 and Esc (clears the selection).

import { mapKeyboard } from "./keyboard.js";

export function bindInput(view) {
  const canvas = view.canvas;
  const said = document.createElement("p");
  said.className = "visually-hidden graph-said";
  said.setAttribute("aria-live", "polite");
  canvas.after(said);
  const walker = mapKeyboard(view, (line) => { said.textContent = line; });
  let drag = null;
  const point = (event) => {
    const rect = canvas.getBoundingClientRect();
    return [event.clientX - rect.left, event.clientY - rect.top];
  };
  const down = (event) => {
    if (event.button !== 0) return;
    canvas.setPointerCapture(event.pointerId);
    // What is pressed is what a click opens: read now, before the press redraws the names.
    const p = point(event);
    drag = { start: p, last: p, moved: false, node: view.nodeAt(p[0], p[1], { names: true }) };
    view.camera.stop();
  };
  const move = (event) => {
    const p = point(event);
    if (drag) {
      const dx = p[0] - drag.last[0], dy = p[1] - drag.last[1];
      if (Math.abs(p[0] - drag.start[0]) + Math.abs(p[1] - drag.start[1]) > 3) drag.moved = true;
      drag.last = p;
      if (drag.moved) view.camera.panBy(dx, dy);
      return;
    }
    const i = view.nodeAt(p[0], p[1]);
    if (i !== view.hovered) {
      view.hovered = i;
      canvas.classList.toggle("over-node", i >= 0);
      view.onHover(i >= 0 ? view.model.nodes[i] : null);
      view.invalidate();
    }
  };
  const up = (event) => {
    if (!drag) return;
    const { moved, node: i } = drag;
    drag = null;
    if (!moved) {
      if (event.shiftKey || event.ctrlKey || event.metaKey) view.toggle(i);
      else view.select(i, { fly: i >= 0 });  // frame its local graph
    }
  };
  const wheel = (event) => {
    event.preventDefault();
    const [sx, sy] = point(event);
    const factor = Math.exp(-event.deltaY * (event.deltaMode === 1 ? 0.05 : 0.0022));
    view.camera.zoomAt(sx, sy, factor, view.width, view.height);
  };
  const dblclick = (event) => {
    const [sx, sy] = point(event);
    const [x, y] = view.camera.toWorld(sx, sy, view.width, view.height);
    view.camera.flyTo(x, y, view.camera.k * 2.2);
  };
  const key = (event) => {
    if (walker.key(event)) {
      event.preventDefault();
      event.stopPropagation();  // Enter here opens a node, not whatever the page does with it
      return;
    }
    const step = 80;
    const actions = {
      ArrowLeft: () => view.camera.panBy(step, 0), ArrowRight: () => view.camera.panBy(-step, 0),
      ArrowUp: () => view.camera.panBy(0, step), ArrowDown: () => view.camera.panBy(0, -step),
      "+": () => view.camera.zoomAt(view.width / 2, view.height / 2, 1.25, view.width, view.height),
      "=": () => view.camera.zoomAt(view.width / 2, view.height / 2, 1.25, view.width, view.height),
      "-": () => view.camera.zoomAt(view.width / 2, view.height / 2, 0.8, view.width, view.height),
      "0": () => view.frameShown(),  // what is shown: the filtered nodes, or all
      Escape: () => view.select(-1),
    };
    const action = actions[event.key];
    if (action && view.model) {
      event.preventDefault();
      action();
    }
  };
  const leave = () => {
    if (view.hovered >= 0) {
      view.hovered = -1;
      view.onHover(null);
      view.invalidate();
    }
  };
  canvas.addEventListener("pointerdown", down);
  canvas.addEventListener("pointermove", move);
  canvas.addEventListener("pointerup", up);
  canvas.addEventListener("pointerleave", leave);
  canvas.addEventListener("wheel", wheel, { passive: false });
  canvas.addEventListener("dblclick", dblclick);
  canvas.addEventListener("keydown", key);
  return () => {
    canvas.removeEventListener("pointerdown", down);
    canvas.removeEventListener("pointermove", move);
    canvas.removeEventListener("pointerup", up);
    canvas.removeEventListener("pointerleave", leave);
    canvas.removeEventListener("wheel", wheel);
    canvas.removeEventListener("dblclick", dblclick);
    canvas.removeEventListener("keydown", key);
    said.remove();
  };
}
