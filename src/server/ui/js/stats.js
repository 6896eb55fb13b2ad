// Stats: three small plots from GET /api/stats — mastery over the last 30 days, reviews due per
// day for the next 30, retention achieved against the target — each with a sentence saying what
// it shows, and an empty state before there is anything to plot. Redrawn to the column's width.

import { api } from "./api.js";
import { h, plural, replace, stateGlyph, STATE_LABELS, topicsAndIdeas } from "./dom.js";
import { openNewSession } from "./dialogs.js";
import { goalsSummary } from "./goals.js";
import { go } from "./router.js";
import { bars, countTicks, frame, line, reference, xAxis, yAxis } from "./plots.js";
import { percent, shortDate } from "./when.js";

const HEIGHT = 200;

export async function mountStats({ main, dock }) {
  document.body.dataset.view = "stats";
  const page = h("section.stats", { "aria-labelledby": "stats-title" });
  const scroll = h("div.stats-scroll", { tabindex: "0", role: "region", "aria-label": "Stats" }, page);  // keyboard-scrollable
  replace(main, scroll);
  replace(page, h("h1", { id: "stats-title" }, "Stats"), h("p.muted", "Loading…"));
  replace(dock);
  let data;
  try {
    data = await api.get("/api/stats");
  } catch (error) {
    replace(page, h("h1", { id: "stats-title" }, "Stats"),
      h("p.inline-error", `Could not load your stats: ${error.message}`));
    return { unmount() { document.body.dataset.view = ""; } };
  }
  const t = data.totals;
  renderStatsDock(dock, data);
  if (!t.tried && !t.reviewable) {
    replace(page, h("div.stats-empty",
      h("h1", { id: "stats-title" }, "Nothing to plot yet"),
      h("p.lede", "Your progress shows here once there is evidence of what you know: answer the quizzes in a session or “Quiz me” on a note, then review the cards they give you."),
      h("p.muted.small", `Your graph holds ${graphSize(t)}; none has been tried yet.`),
      h("div.review-links", h("button.primary", { type: "button", onclick: () => openNewSession() }, "Start a session"),
        h("button", { type: "button", onclick: () => go("#/") }, "Back to the graph")),
      goalsSummary()));
    document.body.dataset.stats = "empty";
    return { unmount() { document.body.dataset.view = ""; delete document.body.dataset.stats; } };
  }

  const plots = [
    card("Mastery over the last 30 days", masteryCaption(data), (w) => masteryPlot(data, w)),
    card("Reviews due in the next 30 days", dueCaption(data), (w) => duePlot(data, w)),
    card("Retention: achieved vs target", retentionCaption(data), (w) => retentionPlot(data, w)),
  ];
  replace(page, h("h1", { id: "stats-title" }, "Stats"),
    h("p.lede.small", `${t.tried} tried · ${t.solid} solid · ${t.shaky} shaky`
      + (t["corrected-misconception"] ? ` · ${t["corrected-misconception"]} corrected` : "")
      + ` · ${plural(t.due_today, "card")} due today`),
    goalsSummary(), plots.map((p) => p.el));
  const draw = () => {
    for (const p of plots) p.draw();
  };
  let pending = 0;
  const observer = new ResizeObserver(() => {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(draw);
  });
  observer.observe(page);
  draw();
  document.body.dataset.stats = "ready";
  return {
    unmount() {
      observer.disconnect();
      cancelAnimationFrame(pending);
      document.body.dataset.view = "";
      delete document.body.dataset.stats;
    },
  };
}

/** What the graph holds, in the map's words. */
function graphSize(t) {
  return topicsAndIdeas(t.topics, t.nodes - t.topics);
}

function card(title, caption, plot) {
  const host = h("div.plot-host");
  const el = h("figure.plot-card", h("h2", title), host, h("figcaption.small", caption));
  let width = 0;
  return {
    el,
    draw() {
      const w = Math.floor(host.clientWidth);
      if (!w || w === width) return;
      width = w;
      replace(host, plot(w));
    },
  };
}

/** x positions 0..29 for 30 days, with a date label every week and the ends named. */
function dayTicks(days, { endLabel, startLabel }) {
  const n = days.length;
  const out = [[0, startLabel ?? shortDate(days[0].date), "start"]];
  for (let i = 7; i < n - 4; i += 7) out.push([i, shortDate(days[i].date)]);
  out.push([n - 1, endLabel ?? shortDate(days[n - 1].date), "end"]);
  return out;
}

function masteryPlot(data, width) {
  const days = data.mastery_over_time;
  const f = frame({ width, height: HEIGHT, x: [0, days.length - 1], y: [0, 1],
    label: masteryCaption(data) });
  yAxis(f, [[0, "0"], [0.5, "0.5"], [1, "1"]], "mastery");
  reference(f, 0.8, "solid from 0.8");
  xAxis(f, dayTicks(days, { endLabel: "today" }), "last 30 days");
  line(f, days.map((d, i) => [i, d.mean]), { area: true, cls: "mastery" });
  return f.root;
}

function duePlot(data, width) {
  const days = data.reviews_due;
  const max = Math.max(1, ...days.map((d) => Math.max(d.due, d.planned)));
  const { top, ticks } = countTicks(max);
  const f = frame({ width, height: HEIGHT, x: [-0.5, days.length - 0.5], y: [0, top],
    label: dueCaption(data) });
  yAxis(f, ticks, "cards");
  xAxis(f, dayTicks(days, { startLabel: "today" }), "next 30 days");
  // Over a daily cap a card waits for a later day: its FSRS due date drawn as a faint outline.
  bars(f, days.map((d, i) => [i, d.planned, d.due]), { slots: days.length, cls: "held" });
  bars(f, days.map((d, i) => [i, 0, d.planned]), { slots: days.length, cls: "planned",
    classOf: (i) => (i === 0 ? "today" : "") });
  return f.root;
}

function retentionPlot(data, width) {
  const r = data.retention;
  const weeks = r.weeks;
  const lows = weeks.map((w) => w.achieved).filter((v) => v !== null);
  const floor = Math.max(0, Math.min(0.5, Math.floor((Math.min(r.target, ...lows) - 0.05) * 10) / 10));
  const f = frame({ width, height: HEIGHT, x: [-0.5, weeks.length - 0.5], y: [floor, 1],
    label: retentionCaption(data) });
  yAxis(f, [[floor, percent(floor)], [0.75, "75%"], [1, "100%"]], "recalled");
  reference(f, r.target, `target ${percent(r.target)}`);
  xAxis(f, weeks.map((w, i) => [i, `week of ${shortDate(w.start)}\n${w.reviews ? plural(w.reviews, "review") : "no reviews"}`]));
  line(f, weeks.map((w, i) => [i, w.achieved]), { dots: "all", cls: "retention" });
  return f.root;
}

function masteryCaption(data) {
  const days = data.mastery_over_time;
  const last = days.at(-1);
  const first = days.find((d) => d.mean !== null);
  if (!last || last.mean === null) return "No mastery yet: answer a quiz in a session to start the line.";
  const change = first && first !== last ? ` (from ${first.mean.toFixed(2)} on ${shortDate(first.date)})` : "";
  return `Mean mastery of what you have tried (${last.tried}): ${last.mean.toFixed(2)} today${change}; ${last.solid} solid, ${last.shaky} shaky.`;
}

function dueCaption(data) {
  const days = data.reviews_due;
  const week = days.slice(0, 7).reduce((s, d) => s + d.planned, 0);
  const busiest = days.reduce((a, d) => (d.planned > a.planned ? d : a), days[0]);
  if (!days.some((d) => d.planned || d.due)) {
    return "No reviews scheduled in the next 30 days. New cards are not counted until their first review.";
  }
  return `${plural(days[0].planned, "review")} today, ${week} this week; busiest day ${shortDate(busiest.date)} (${busiest.planned}). New cards are not counted until their first review.`;
}

function retentionCaption(data) {
  const r = data.retention;
  if (r.achieved === null) {
    return `No scheduled reviews in the last 4 weeks yet. Retention counts the cards that come back after their first days of learning; the target is ${percent(r.target)}.`;
  }
  const verdict = r.achieved >= r.target ? "on target" : "below target: shorter gaps would help";
  return `You recalled ${percent(r.achieved)} of ${plural(r.reviews, "scheduled review")} in the last 4 weeks — target ${percent(r.target)}, ${verdict}.`;
}

function renderStatsDock(dock, data) {
  const t = data.totals;
  replace(dock, h("div.dock-section",
    h("h2.dock-title", "Where you stand"),
    h("ul.state-totals", Object.keys(STATE_LABELS).map((s) => h("li", stateGlyph(s, 12),
      h("span", STATE_LABELS[s]), h("span.count", String(t[s] || 0))))),
    h("p.muted.small", `${graphSize(t)} in your graph · ${plural(t.reviewable, "card")} in review`),
    h("h3", "Today"),
    h("p.small", t.due_today ? `${plural(t.due_today, "card")} to review (${t.new_today} new).` : "Nothing to review today."),
    t.due_today ? h("button.primary", { type: "button", onclick: () => go("#/review") }, "Review now") : null,
    topics(data),
  ));
}

function topics(data) {
  const tried = data.topics.filter((c) => c.tried).sort((a, b) => b.mastery - a.mastery);
  if (!tried.length) return null;
  // The map's regions, in the map's word (each note is a topic there; a region holds several).
  return h("section", h("h3", "By region of your map"),
    h("ul.topic-list", tried.slice(0, 12).map((c) => h("li", { title: topicWhy(c) }, stateGlyph(c.state, 10),
      h("span.topic-label", c.label), h("span.count", c.mastery.toFixed(2))))));
}

/** Why a region's mean can pass 0.8 and still be shaky: it is solid only when every idea is. */
function topicWhy(c) {
  return `${STATE_LABELS[c.state] || c.state}: ${c.tried} of ${plural(c.parts, "idea")} tried. `
    + "A region is solid when every idea in it is.";
}
