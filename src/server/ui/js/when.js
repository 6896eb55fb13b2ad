// Times as a learner reads them: how long until a card comes back ("10 min", "4 days") and which
// day something falls on ("tomorrow", "in 3 days · Dec 4"). Local calendar days, like the server.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The wait from `from` to `iso`, short: "<1 min", "10 min", "3 h", "1 day", "4 days", "2 mo", "1.2 yr". */
export function waitText(iso, from = Date.now()) {
  const ms = new Date(iso).getTime() - from;
  if (Number.isNaN(ms)) return "";
  if (ms < MINUTE) return "<1 min";
  const minutes = Math.round(ms / MINUTE);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.round(ms / HOUR);
  if (hours < 24) return `${hours} h`;  // a day minus the seconds since the page asked is "1 day"
  const days = Math.round(ms / DAY);
  if (days < 31) return days === 1 ? "1 day" : `${days} days`;
  if (days < 365) return `${Math.round(days / 30.4)} mo`;
  return `${(days / 365).toFixed(1)} yr`;
}

function dayStart(t) {
  const d = new Date(t);
  d.setHours(0, 0, 0, 0);
  return d;
}

/** Whole calendar days from today to `iso` (0 today, 1 tomorrow, -1 yesterday). */
export function daysFromToday(iso, now = Date.now()) {
  const then = new Date(iso);
  if (Number.isNaN(then.getTime())) return null;
  return Math.round((dayStart(then) - dayStart(now)) / DAY);
}

export function shortDate(iso) {
  const d = typeof iso === "string" && /^\d{4}-\d{2}-\d{2}$/.test(iso) ? new Date(`${iso}T12:00:00`) : new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : d.toLocaleDateString(undefined, { month: "short", day: "numeric" });
}

/** "today", "tomorrow", "in 3 days (Dec 4)", "on Jan 20" — the day `iso` falls on. */
export function dayPhrase(iso, now = Date.now()) {
  const days = daysFromToday(iso, now);
  if (days === null) return "";
  if (days <= 0) return "today";
  if (days === 1) return "tomorrow";
  if (days < 14) return `in ${days} days (${shortDate(iso)})`;
  return `on ${shortDate(iso)}`;
}

export function percent(x) {
  return x === null || x === undefined ? "—" : `${Math.round(x * 100)}%`;
}

/** A probability as a learner reads it: never "100%" for what is merely very likely. */
export function chance(x) {
  if (x === null || x === undefined) return "—";
  return x >= 1 ? "100%" : `${Math.min(99, Math.round(x * 100))}%`;
}

/** A moment in a recording as its player shows it: "4:05", "1:02:09" (never negative). */
export function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds || 0));
  const hh = Math.floor(s / 3600);
  const mm = String(Math.floor(s / 60) % 60).padStart(hh ? 2 : 1, "0");
  const ss = String(s % 60).padStart(2, "0");
  return hh ? `${hh}:${mm}:${ss}` : `${mm}:${ss}`;
}
