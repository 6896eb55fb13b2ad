// A lecture's key moments above its transcript: where each topic starts and what it is about
// (computed once per transcript by the server, with no model); a click seeks there.

import { h } from "./dom.js";
import { clock } from "./when.js";
import { momentPlace } from "./ask-view.js";
import { sourceHref } from "./sources.js";

/** The key moments of transcript `body` ({id, moments: [{start, end, title, terms}]}), or null. */
export function keyMoments(body) {
  const moments = body.moments || [];
  if (!moments.length) return null;
  return h("details.key-moments", { open: true },
    h("summary", h("span.key-moments-title", "Key moments"), h("span.muted.small", ` · ${moments.length}`)),
    h("ol.key-moment-list", moments.map((m) => h("li.key-moment",
      h("a.key-moment-link", {
        href: sourceHref(body.id, momentPlace(m.start)),
        title: m.terms?.length ? `About: ${m.terms.join(", ")}` : null,
      }, h("span.cue-time", clock(m.start)), h("span.key-moment-text", m.title))))));
}
