// Home: the knowledge graph, full bleed, with search floating top-left, the legend and zoom
// controls; the selected node's details live in the dock (several selected: selection-dock.js). An empty graph shows the welcome,
// unless notes are being imported: then the graph grows as they come in, under a progress strip.
// The graph is read as the slim map (GET /api/graph/map); a node's detail when it is selected.

import { api } from "./api.js";
import { h, replace, stateGlyph, STATE_LABELS } from "./dom.js";
import { GraphCanvas } from "./graph/canvas.js";
import { depthControl } from "./graph/depth-control.js";
import { ImportStrip, runningImport } from "./graph/import-strip.js";
import { decodeMap, joinParts } from "./graph/map-data.js";
import { buildModel, STATES } from "./graph/model.js";
import { forgetShownNode, renderDockHint, showNode } from "./nodepanel.js";
import { renderSelection } from "./selection-dock.js";
import { GraphFilters } from "./graph-filters.js";
import { GraphSearch } from "./search.js";
import { on, state, refreshChats } from "./store.js";
import { activityItems } from "./activity.js";
import { renderWelcome } from "./welcome.js";
import { openImport } from "./dialogs.js";

const MAP = "/api/graph/map";
const FIRST_PART = 20000;  // nodes of the first part: the map paints on it, the rest follows
const MAP_FIRST = `${MAP}?limit=${FIRST_PART}`;  // graph/early-map.js asks the same
const GROW_EVERY = 1200;  // ms between map reads while an import runs (more for big graphs)

// Home is the usual first view: its map is asked for as the page loads (graph/early-map.js),
// not after the boot's other requests, so it is on its way while the rest of the window mounts.
let early = window.__studyhallEarlyMap || null;
delete window.__studyhallEarlyMap;

/** The early map is for a Home mounted first: once another view opened first (Today, at a busy
 * launch), the graph may change before Home opens — a grade, a quiz — so Home reads it then. */
export function forgetEarlyMap() {
  early = null;
}

export async function mountHome({ main, dock }, params, query) {
  performance.mark("home:mount");  // the paint benchmark's milestones (bench/graph_paint.py)
  document.body.dataset.view = "home";
  const stage = h("section.home", { "aria-label": "Knowledge graph" });
  const host = h("div.graph-host");
  const status = h("p.graph-status", { role: "status", "aria-live": "polite" }, "Loading your graph…");
  stage.append(host, status);
  replace(main, stage);
  renderDockHint(dock);
  const strip = new ImportStrip(stage);

  let view = null;
  let search = null;
  let filters = null;
  let data = null;
  let complete = false;  // every part of data's version was read
  let disposed = false;
  let importing = runningImport(activityItems());
  let fitWhileGrowing = false;  // an import into an empty graph: keep the whole of it in view

  const select = (node) => {
    if (!node) {
      forgetShownNode();
      renderDockHint(dock, data);
    } else {
      fitWhileGrowing = false;
      showNode(dock, node.id, (id) => focusNode(id), { onGone: () => load({ keepCamera: true }),
        sourcesOf: (id) => view?.model?.nodes[view.model.index.get(id)]?.sources ?? null,
        topicOf: (id) => {  // an idea's topic (it is drawn as its satellite), or null
          const m = view?.model, t = m ? m.topicOf[m.index.get(id)] : -1;
          return t >= 0 ? m.nodes[t] : null;
        } });
    }
  };
  const focusNode = (id) => {
    const i = view?.model?.index.get(id);
    if (i !== undefined) view.select(i, { fly: true });
  };
  // Several selected: the dock lists them; removing one keeps the keyboard on the list.
  let keepFocus = null;
  const selectMany = (nodes) => {
    fitWhileGrowing = false;
    forgetShownNode();
    const focusAt = keepFocus;
    keepFocus = null;
    renderSelection(dock, nodes, {
      show: (id) => view?.flyToNode(view.model.index.get(id) ?? -1),
      remove: (id) => {
        keepFocus = nodes.findIndex((n) => n.id === id);
        toggleNode(id);
        if (!view?.picked.size) view?.canvas.focus();  // the last one out: back to the map
      },
      clear: () => {
        view?.select(-1);
        view?.canvas.focus();
      },
    }, focusAt);
  };
  const toggleNode = (id, options) => {
    const i = view?.model?.index.get(id);
    if (i !== undefined) view.toggle(i, options);
  };

  async function readMap(known) {
    const first = early;
    early = null;
    if (first && !known) {
      try {
        return await first;
      } catch { /* read again below */ }
    }
    return api.get(known ? `${MAP_FIRST}&known=${encodeURIComponent(known)}` : MAP_FIRST);
  }

  /** The parts after the first (all of one version), or null when the graph changed meanwhile. */
  async function readRest(first) {
    const rest = [];
    for (let next = first.next; next !== null && next !== undefined;) {
      const part = await api.get(`${MAP}?start=${next}&version=${encodeURIComponent(first.version)}`);
      if (part.stale) return null;
      rest.push(part);
      next = part.next;
    }
    return rest;
  }

  /** Nodes the server has not placed yet: a fallback, as the server places new nodes itself
   *  after every import and every session extraction, but one read between a merge and that
   *  upkeep still sees them unplaced. Ask it to place them (the one sanctioned graph-adjacent
   *  write); true when it did and the map should be read again. Not while an import runs: its
   *  upkeep places the nodes once the notes are in. */
  async function placeMissing(body) {
    // An idea needs no place of its own: it is drawn on its topic's rings (graph/satellites.js).
    const topic = body.topic || [];
    if (importing || !body.x.some((x, i) => x === null && (topic[i] ?? -1) === -1)) return false;
    try {
      await api.put("/api/graph/positions", { positions: {} });
      return true;
    } catch (error) {
      console.warn("could not place new nodes", error);  // drawn beside the rest instead
      return false;
    }
  }

  let loading = null;
  let again = false;
  function load(options) {
    // One read at a time; asked again meanwhile, it reads once more after this one.
    if (loading) {
      again = true;
      return loading;
    }
    loading = loadNow(options).finally(() => {
      loading = null;
      if (again && !disposed) {
        again = false;
        load({ keepCamera: true });
      }
    });
    return loading;
  }

  async function loadNow({ keepCamera = true } = {}) {
    let body;
    try {
      body = await readMap(complete ? data?.version : null);
      if (!disposed && !body.unchanged && await placeMissing(body)) body = await api.get(MAP_FIRST);
    } catch (error) {
      status.textContent = `Could not load the graph: ${error.message}`;
      status.hidden = false;
      return;
    }
    if (disposed || body.unchanged) return;
    performance.mark("home:map-read");
    complete = body.next === null || body.next === undefined;
    await show(body, keepCamera);  // a big graph: its most important nodes first
    if (complete || disposed) return;
    let rest;
    try {
      rest = await readRest(body);
    } catch (error) {
      console.warn("could not read the rest of the graph", error);
      return;
    }
    if (disposed) return;
    const whole = rest && joinParts(body, rest);
    if (!whole || await placeMissing(whole)) {
      again = true;  // the graph changed between parts: read it again
      return;
    }
    complete = true;
    await show(whole, true);
    performance.mark("home:map-complete");
  }

  async function show(body, keepCamera) {
    const fresh = decodeMap(body);
    const grew = data !== null && fresh.nodes.length > data.nodes.length;
    data = fresh;
    state.graphCount = data.nodes.length;
    document.body.dataset.graphNodes = String(data.nodes.length);
    if (!data.nodes.length) {
      await showEmpty();
      return;
    }
    document.getElementById("shell")?.classList.remove("welcome-mode");
    if (!view) {
      replace(stage, h("h1.visually-hidden", "Your knowledge graph"), host, strip.root);
      view = new GraphCanvas(host, { onSelect: select, onSelectMany: selectMany });
      window.__studyhall = Object.assign(window.__studyhall || {}, { graph: view });
      search = new GraphSearch(stage, {
        // Shift+Enter (or Shift+click on a result) adds it to the selection instead.
        onPick: (id, { add = false } = {}) => (add ? toggleNode(id, { fly: true }) : focusNode(id)),
        stateOf: (id) => view.model.nodes[view.model.index.get(id)]?.state,
        onMarks: (ids) => {
        view.marked = new Set(ids.map((id) => view.model.index.get(id)).filter((i) => i !== undefined));
        view.invalidate();
      } });
      filters = new GraphFilters(stage, { onChange: (mask, { changed }) => {
        view.setFilter(mask, { frame: changed });  // a new choice re-frames; a re-read keeps the view
        updateLegend(stage, data, mask);
      } });
      const depth = depthControl(() => view);
      view.onDepth = depth.sync;
      stage.append(legend(), zoomControls(() => view), depth);
      view.floats = [search.root, filters.root, strip.root, ...stage.querySelectorAll(".legend, .zoom-controls, .depth-control")];
      for (const type of ["pointerdown", "wheel"]) host.addEventListener(type, () => { fitWhileGrowing = false; });
      fitWhileGrowing = Boolean(importing);
      // For tests and benchmarks: the label boxes of the last frame, in page pixels.
      window.__graphLabels = () => {
        const origin = view.canvas.getBoundingClientRect();
        return view.labelRects.map((r) => ({ ...r, x: r.x + origin.left, y: r.y + origin.top }));
      };
    }
    const selectedId = view.selected >= 0 ? view.model.nodes[view.selected].id : query.get("node");
    const pickedIds = [...view.picked].map((i) => view.model.nodes[i].id);
    view.setModel(buildModel(data), { keepCamera: keepCamera && !(grew && fitWhileGrowing) });
    performance.mark("home:model-built");
    updateLegend(stage, data);
    filters.setData(data);
    const stillPicked = pickedIds.map((id) => view.model.index.get(id)).filter((i) => i !== undefined);
    if (pickedIds.length && stillPicked.length) view.pick(stillPicked);
    else if (selectedId && view.model.index.has(selectedId)) focusNode(selectedId);
    else renderDockHint(dock, data);
    if (query.get("search")) search.focus();
  }

  async function showEmpty() {
    if (importing) {
      // Notes are on their way: the graph grows here as they are added.
      document.getElementById("shell")?.classList.remove("welcome-mode");
      status.textContent = "Your notes are on their way — topics appear here as they are added.";
      status.hidden = false;
      replace(stage, host, status, strip.root);
      renderDockHint(dock, data);
      return;
    }
    const chats = state.chats.length ? state.chats : await refreshChats();
    if (disposed) return;
    if (!chats.length) {
      replace(stage, renderWelcome());
      document.getElementById("shell")?.classList.add("welcome-mode");  // no dock: one calm page
    } else {
      replace(stage, h("div.empty-graph",
        h("h1", "Your graph is still empty"),
        h("p", "What you show you understand in a session lands here once it is added to the graph. ",
          "Open a session and choose ", h("strong", "Add to graph"), ", or import your notes."),
        h("p", h("button", { type: "button", onclick: () => openImport() }, "Import notes")),
      ));
    }
    renderDockHint(dock, data);
  }

  // While an import runs: follow its progress and read the map again as it moves on (at most
  // every GROW_EVERY ms; an unchanged graph answers in a few bytes).
  let growTimer = 0;
  let lastGrow = 0;
  function follow(items) {
    if (disposed) return;
    const was = importing;
    importing = runningImport(items);
    const moved = strip.show(importing);
    if (!importing) {
      clearTimeout(growTimer);
      growTimer = 0;
      if (was && !data?.nodes.length) load({ keepCamera: false });  // the welcome, or the graph
      else if (was) {
        // The import is in: frame the whole of it (unless the learner chose something meanwhile).
        load({ keepCamera: true }).then(() => {
          if (!disposed && view?.model && view.selected < 0 && !view.picked.size) view.frameShown();
        });
      }
      return;
    }
    if (!was && !data?.nodes.length) showEmpty();
    if (moved && !growTimer) {
      // A big graph is read less often: each new version costs the server and this page a build.
      const every = Math.max(GROW_EVERY, (data?.nodes.length || 0) / 20);
      const wait = Math.max(0, lastGrow + every - Date.now());
      growTimer = setTimeout(() => {
        growTimer = 0;
        lastGrow = Date.now();
        load({ keepCamera: true });
      }, wait);
    }
  }

  const themeOff = on("theme", () => view?.refreshTheme());
  const graphOff = on("graph-changed", () => load({ keepCamera: true }));
  const activityOff = on("activity", follow);
  strip.show(importing);
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
      activityOff();
      clearTimeout(growTimer);
      forgetShownNode();
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

/** The legend counts what is shown: the topics the filters let through (`mask`), or all (an
 *  idea is its topic's satellite, in its topic's rolled-up state). */
function updateLegend(stage, data, mask = null) {
  const counts = {};
  data.nodes.forEach((n, i) => {
    if ((!mask || mask[i]) && (n.topic ?? -1) === -1) counts[n.state] = (counts[n.state] || 0) + 1;
  });
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
      onclick: act((v) => v.frameShown()) }, "⤢"),
  );
}
