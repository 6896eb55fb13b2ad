// Hash routes: #/ (home graph), #/session/<id>, #/settings, #/sources, #/artifacts[/<id>].
// One view is mounted at a time; it gets the main area and the dock, and unmounts cleanly.

const routes = [];
let current = null;
let currentKey = "";

export function route(pattern, load) {
  routes.push({ pattern, load });
}

export function go(hash) {
  if (location.hash === hash) render();
  else location.hash = hash;
}

export function currentRoute() {
  return currentKey;
}

/** The mounted view; null while the next one is still mounting (Home reads the graph first). */
export function currentView() {
  return current ? current.view : null;
}

function match(hash) {
  const path = hash.replace(/^#/, "") || "/";
  const [pathname, query = ""] = path.split("?");
  for (const { pattern, load } of routes) {
    const m = pattern.exec(pathname);
    if (m) return { load, params: { ...m.groups }, query: new URLSearchParams(query), key: pathname };
  }
  return null;
}

// Renders run one after another: a view still loading (the graph) when the route changes again
// must be mounted, then unmounted, before the next one — never after it.
let queue = Promise.resolve();

export function render(ctx = render.ctx) {
  render.ctx = ctx;
  queue = queue.then(() => renderNow(ctx), () => renderNow(ctx));
  return queue;
}

async function renderNow(ctx) {
  const found = match(location.hash) || match("#/");
  if (current && current.key === found.key && current.view.update) {
    current.view.update(found.params, found.query);
    return;
  }
  if (current) {
    try {
      current.view.unmount?.();
    } catch (error) {
      console.error("unmount failed", error);
    }
    current = null;  // gone: keys must not reach it while the next view mounts
  }
  currentKey = found.key;
  const view = await found.load(ctx, found.params, found.query);
  current = { key: found.key, view: view || {} };
  document.dispatchEvent(new CustomEvent("studyhall:route", { detail: found.key }));
}

export function start(ctx) {
  window.addEventListener("hashchange", () => render(ctx));
  return render(ctx);
}
