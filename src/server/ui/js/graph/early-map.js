// Home's map, asked for while the page is still loading: a tiny classic script at the top of
// index.html runs before the stylesheets and the window's modules load, and only when the page
// opens on Home. home.js takes the answer from window.__studyhallEarlyMap (the session cookie
// authenticates the read; if it fails, Home reads the map again).
(() => {
  const path = (location.hash || "#/").replace(/^#/, "").split("?")[0];
  if (path !== "/" && path !== "") return;
  const read = fetch("/api/graph/map?limit=20000", { credentials: "same-origin" })
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`The server answered ${r.status}.`))));
  read.catch(() => {});  // home.js reads the map again if this failed
  window.__studyhallEarlyMap = read;
})();
