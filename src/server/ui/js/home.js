// Home: the knowledge graph, full bleed, with search floating top-left, the legend and zoom
// controls; the selected node's details live in the dock. An empty graph shows the welcome.

import { api } from "./api.js";
import { h, replace, stateGlyph, STATE_LABELS } from "./dom.js";
import { GraphCanvas } from "./graph/canvas.js";
import { buildModel, STATES } from "./graph/model.js";
import { renderNodePanel, renderDockHint } from "./nodepanel.js";
import { GraphFilters } from "./graph-filters.js";
import { GraphSearch } from "./search.js";
import { on, state, refreshChats } from "./store.js";
import { renderWelcome } from "./welcome.js";
import { openImport } from "./dialogs.js";

export async function mountHome({ main, dock }, params, query) {
  document.body.dataset.view = "home";
  const stage = h("section.home", { "aria-label": "Knowledge graph" });
  const host = h("div.graph-host");
  const status = h("p.graph-status", { role: "status", "aria-live": "polite" }, "Loading your graph…");
  stage.append(host, status);
  replace(main, stage);
  renderDockHint(dock);

  let view = null;
  let search = null;
  let filters = null;
  let data = null;
  let disposed = false;

  const select = (node) => {
    if (!node) renderDockHint(dock, data);
    else renderNodePanel(dock, node, data, (id) => focusNode(id));
  };
  const focusNode = (id) => {
    const i = view?.model?.index.get(id);
    if (i !== undefined) view.select(i, { fly: true });
  };

  async function load({ keepCamera = true } = {}) {
    let fresh;
    try {
      fresh = await api.get("/api/graph");
    } catch (error) {
      status.textContent = `Could not load the graph: ${error.message}`;
      status.hidden = false;
      return;
    }
    if (disposed) return;
    if (fresh.nodes.some((n) => !n.position)) {
      // A fallback: the server places new nodes itself after every import and every session
      // extraction, but one read between a merge and that upkeep still sees them unplaced.
      // Ask the server to place them (the one sanctioned graph-adjacent write) and read again.
      try {
        await api.put("/api/graph/positions", { positions: {} });
        fresh = await api.get("/api/graph");
      } catch (error) {
        console.warn("could not place new nodes", error);  // drawn beside the rest instead
      }
      if (disposed) return;
    }
    data = fresh;
    state.graphCount = data.nodes.length;
    document.body.dataset.graphNodes = String(data.nodes.length);
    if (!data.nodes.length) {
      await showEmpty();
      return;
    }
    document.getElementById("shell")?.classList.remove("welcome-mode");
    if (!view) {
      replace(stage, host);
      view = new GraphCanvas(host, { onSelect: select });
      window.__studyhall = Object.assign(window.__studyhall || {}, { graph: view });
      search = new GraphSearch(stage, {
        onPick: (id) => focusNode(id),
        stateOf: (id) => view.model.nodes[view.model.index.get(id)]?.state,
        onMarks: (ids) => {
        view.marked = new Set(ids.map((id) => view.model.index.get(id)).filter((i) => i !== undefined));
        view.invalidate();
      } });
      filters = new GraphFilters(stage, { onChange: (mask) => view.setFilter(mask) });
      stage.append(legend(), zoomControls(() => view));
      view.floats = [search.root, filters.root, ...stage.querySelectorAll(".legend, .zoom-controls")];
      // For tests and benchmarks: the label boxes of the last frame, in page pixels.
      window.__graphLabels = () => {
        const origin = view.canvas.getBoundingClientRect();
        return view.labelRects.map((r) => ({ ...r, x: r.x + origin.left, y: r.y + origin.top }));
      };
    }
    const selectedId = view.selected >= 0 ? view.model.nodes[view.selected].id : query.get("node");
    view.setModel(buildModel(data), { keepCamera });
    updateLegend(stage, data);
    filters.setData(data);
    renderDockHint(dock, data);
    if (selectedId) focusNode(selectedId);
    if (query.get("search")) search.focus();
  }

  async function showEmpty() {
    const chats = state.chats.length ? state.chats : await refreshChats();
    if (disposed) return;
    if (!chats.length) {
      replace(stage, renderWelcome());
      document.getElementById("shell")?.classList.add("welcome-mode");  // no dock: one calm page
    } else {
      replace(stage, h("div.empty-graph",
        h("h2", "Your graph is still empty"),
        h("p", "What you show you understand in a session lands here once it is added to the graph. ",
          "Open a session and choose ", h("strong", "Add to graph"), ", or import your notes."),
        h("p", h("button", { type: "button", onclick: () => openImport() }, "Import notes")),
      ));
    }
    renderDockHint(dock, data);
  }

  const themeOff = on("theme", () => view?.refreshTheme());
  const graphOff = on("graph-changed", () => load({ keepCamera: true }));
  await load();
  return {
    update(p, q) {
      const id = q.get("node");
      if (id) focusNode(id);
      if (q.get("search")) search?.focus();
    },
    focusSearch() {
      search?.focus();
    },
    unmount() {
      disposed = true;
      document.getElementById("shell")?.classList.remove("welcome-mode");
      themeOff();
      graphOff();
      view?.destroy();
      if (window.__studyhall) window.__studyhall.graph = null;
      delete window.__graphLabels;
      document.body.dataset.view = "";
    },
  };
}

const SHORT_LABELS = { "corrected-misconception": "Corrected" };  // fits the legend at 1024 px

function legend() {
  return h("div.legend.graph-float", { "aria-label": "Legend: understanding states" },
    STATES.map((s) => h("span.legend-item", { dataset: { state: s }, title: STATE_LABELS[s] }, stateGlyph(s, 12),
      h("span.legend-label", SHORT_LABELS[s] || STATE_LABELS[s]), h("span.legend-count", ""))));
}

function updateLegend(stage, data) {
  const counts = {};
  for (const n of data.nodes) counts[n.state] = (counts[n.state] || 0) + 1;
  for (const item of stage.querySelectorAll(".legend-item")) {
    item.querySelector(".legend-count").textContent = String(counts[item.dataset.state] || 0);
  }
}

function zoomControls(getView) {
  const act = (fn) => () => {
    const view = getView();
    if (view?.model) fn(view);
  };
  return h("div.zoom-controls.graph-float", { role: "group", "aria-label": "Zoom" },
    h("button.icon-button", { type: "button", "aria-label": "Zoom in", title: "Zoom in (+)",
      onclick: act((v) => v.camera.zoomAt(v.width / 2, v.height / 2, 1.4, v.width, v.height)) }, "+"),
    h("button.icon-button", { type: "button", "aria-label": "Zoom out", title: "Zoom out (−)",
      onclick: act((v) => v.camera.zoomAt(v.width / 2, v.height / 2, 1 / 1.4, v.width, v.height)) }, "−"),
    h("button.icon-button", { type: "button", "aria-label": "Show the whole graph", title: "Whole graph (0)",
      onclick: act((v) => v.camera.fitAnimated(v.model, v.width, v.height)) }, "⤢"),
  );
}
