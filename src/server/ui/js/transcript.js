// The transcript: the learner's messages, the prober's and teacher's prose (safe Markdown),
// and everything else as quiet cards — questions and their verdicts, plans, the hand-off,
// graph context, jobs and their artifacts. Steers are never shown as chat bubbles.

import { h, replace } from "./dom.js";
import { renderMarkdown } from "./markdown.js";
import { artifactCard, jobChip } from "./artifacts.js";
import { linkMarkers } from "./ask-view.js";
import { readerAt } from "./dock-evidence.js";

const AGENTS = { prober: "Getting to know you", teacher: "Teacher" };
const JOB_TOOLS = new Set(["research", "demo", "visual", "notes", "flashcards", "study_plan"]);

export function renderTranscript(list, messages, ctx) {
  ctx.delivered = deliveredJobs(messages);
  ctx.citations = studyCitations(messages);
  const items = [];
  let lastAgent = null;
  for (const message of messages) {
    const el = messageElement(message, ctx, lastAgent);
    if (!el) continue;
    items.push(el);
    if (message.role === "assistant") lastAgent = message.agent;
    else if (!isSteer(message)) lastAgent = null;
  }
  replace(list, items);
}

/** Job ids whose artifact has arrived (their "preparing" chips say so). */
export function deliveredJobs(messages) {
  const ids = new Set();
  for (const m of messages) {
    for (const p of m.parts) if (p.type === "data" && p.name === "artifact" && p.data?.job_id) ids.add(p.data.job_id);
  }
  return ids;
}

export function isSteer(message) {
  return message.parts.some((p) => p.type === "steer");
}

/** One message's element (or null when it has nothing to show). */
export function messageElement(message, ctx, lastAgent = null) {
  if (message.role === "user") {
    const steer = message.parts.find((p) => p.type === "steer");
    if (steer) return steerElement(message, steer, ctx);
    const text = message.parts.filter((p) => p.type === "text").map((p) => p.text).join("\n\n");
    return h("div.msg.msg-user", { dataset: { messageId: message.id } },
      h("p.msg-who", "You"), h("div.msg-text", text));
  }
  // A message a failure left empty (it holds only the failure's mark) shows nothing: the
  // error block under the transcript says what happened.
  if (ctx.streamingId !== message.id && !message.parts.some(visible)) return null;
  const el = h("div.msg.msg-assistant", { dataset: { messageId: message.id, agent: message.agent || "" } });
  if (message.agent && message.agent !== lastAgent) {
    el.append(h("p.msg-who", AGENTS[message.agent] || message.agent));
  }
  fillAssistant(el, message, ctx);
  return el;
}

/** (Re)render an assistant message's parts into `el`, keeping its header. */
export function fillAssistant(el, message, ctx) {
  for (const child of [...el.children]) if (!child.classList.contains("msg-who")) child.remove();
  const streaming = ctx.streamingId === message.id;
  const parts = message.parts;
  parts.forEach((part, i) => {
    if (part.type === "text") {
      if (!part.text && !(streaming && i === parts.length - 1)) return;
      const prose = h("div.prose");
      renderMarkdown(prose, part.text, { streaming: streaming && i === parts.length - 1 });
      if (ctx.citations?.length) linkMarkers(prose, ctx.citations);
      el.append(prose);
    } else if (part.type === "tool-call") {
      const card = toolCard(part, message, ctx);
      if (card) el.append(card);
    } else if (part.type === "data" && part.name === "job") {
      el.append(jobChip(part.data, ctx.delivered?.has(part.data.job_id)));
    } else if (part.type === "data" && part.name === "incomplete") {
      // The stream broke off (or the app stopped) here: the text above is all that arrived.
      el.append(h("p.cut-note.muted.small", "— The answer broke off here."));
    }
  });
  if (streaming && (!parts.length || parts[parts.length - 1].type !== "text")) {
    el.append(h("div.prose", h("span.caret", { "aria-hidden": "true" })));
  }
}

function visible(part) {
  return part.type === "text" ? Boolean(part.text) : part.type === "tool-call" || (part.type === "data" && part.name === "job");
}

function steerElement(message, steer, ctx) {
  const data = Object.fromEntries(message.parts.filter((p) => p.type === "data").map((p) => [p.name, p.data]));
  const text = message.parts.filter((p) => p.type === "text").map((p) => p.text).join("\n\n");
  if (steer.kind === "handoff") {
    return h("div.divider", { dataset: { messageId: message.id }, role: "separator" },
      h("span", "The teacher takes over"));
  }
  if (steer.kind === "job" && data.artifact) {
    return h("div.steer", { dataset: { messageId: message.id } }, artifactCard(data.artifact, ctx));
  }
  if (steer.kind === "material" && data["study-material"]) return studiedNote(message, data["study-material"]);
  if (steer.kind === "context") {
    const body = h("div.prose.small");
    renderMarkdown(body, text);
    return h("details.card.context-card", { dataset: { messageId: message.id } },
      data["goal-context"] ? h("summary", h("span.card-kicker", "Your goal"), " What the teacher was told about your goal so far")
        : h("summary", h("span.card-kicker", "From your graph"), " What the teacher was told you already know"),
      body);
  }
  return null;
}

/** A study session's passages as citation chips: [n] opens the note at that passage. A passage
 *  of a section's sentences is linked by the section's id ("<note>#H1#H2"), one of the index by
 *  its file and heading slug ("path#slug"). */
function studyCitations(messages) {
  for (const m of messages) {
    const data = m.parts.find((p) => p.type === "data" && p.name === "study-material")?.data;
    if (!data) continue;
    return (data.passages || []).map((p) => {
      const link = String(p.link || "");
      const hash = link.indexOf("#");
      const tail = hash >= 0 ? link.slice(hash + 1) : "";
      const anchor = link.startsWith(`${p.source_id}#`) ? readerAt(tail) : tail;
      return { n: p.n, source_id: p.source_id, anchor, title: p.title, path: data.title };
    });
  }
  return [];
}

/** What a "Study this" session studies: the note, its sections, how many passages the tutor has. */
function studiedNote(message, study) {
  const sections = (study.sections || []).filter((s) => s.level > 0 && s.heading);
  const passages = (study.passages || []).length;
  const source = study.passages?.[0]?.source_id;
  const name = source
    ? h("a", { href: `#/sources/${encodeURIComponent(source)}` }, `“${study.title}”`)
    : `“${study.title}”`;
  return h("details.card.context-card.study-card", { dataset: { messageId: message.id } },
    h("summary", h("span.card-kicker", "Studying your note"), " ", name,
      h("span.muted.small", ` · ${sections.length} section${sections.length === 1 ? "" : "s"}, ${passages} passage${passages === 1 ? "" : "s"} for the teacher`)),
    sections.length
      ? h("ol.dock-outline", sections.map((s) => h("li", { class: `toc-${s.level}` }, s.heading)))
      : h("p.muted.small", "The note has no headings; the teacher reads its passages."));
}

function toolCard(part, message, ctx) {
  if (part.name === "quiz") return quizCard(part);
  if (part.name === "ask_user_question") return askCard(part);
  if (part.name === "plan_init") return planCard(part);
  if (part.name === "probe_done") return assessmentCard(part);
  if (JOB_TOOLS.has(part.name)) {
    return part.state === "output-error"
      ? h("p.note.muted.small", `A ${part.name} job could not start: ${part.error || "refused"}`)
      : null;  // the job's own chip (data part) shows it
  }
  if (part.state === "output-error") {
    return h("p.note.muted.small", `${part.name}: ${part.error || "failed"}`);
  }
  return null;
}

function quizCard(part) {
  if (part.rejected) return null;  // the server refused it: the learner never saw it
  const output = part.output;
  const pending = part.state === "input-available";
  const questions = part.presented?.questions || [];
  const card = h("section.card.quiz-card", { dataset: { toolCallId: part.tool_call_id, state: part.state } });
  const title = `Question${questions.length > 1 ? "s" : ""}`;
  if (pending) {
    card.classList.add("waiting");
    card.append(h("p.card-kicker", `${title} for you · answer below ↓`));
    return card;
  }
  if (part.state === "interrupted" || !output) {
    card.append(h("p.card-kicker", title), h("p.muted.small", "Not answered."));
    return card;
  }
  // Counted from the results when a stored output lacks its totals (never "undefined").
  const results = output.results || [];
  const correct = output.correct ?? results.filter((r) => r.verdict === "correct").length;
  const total = output.total ?? results.length;
  card.append(h("p.card-kicker", total ? `${title} · ${correct} / ${total} correct` : title));
  for (const r of results) card.append(resultBlock(r));
  return card;
}

export function resultBlock(r) {
  return h("div.result", { dataset: { verdict: r.verdict } },
    proseOf(r.prompt, "div.prose.quiz-prompt"),
    h("p.result-line",
      h("span.verdict", { class: `verdict-${r.verdict}` }, VERDICT[r.verdict] || r.verdict)),
    r.response ? labelled("You answered", r.response, "div.result-answer.muted") : null,
    r.verdict !== "correct" && r.expected?.length ? labelled("Answer", r.expected.join(" | "), "div.result-answer") : null,
    r.explanation ? proseOf(r.explanation, "div.prose.small.verdict-explanation") : null);
}

export const VERDICT = { "correct": "✓ Correct", "miss": "✗ Not quite", "dont-know": "? You didn't know — that's fine" };

/** Short Markdown (a choice, an answer) rendered inline: `code` and maths like the prompts. */
export function inlineMarkdown(text, tag = "span.inline-md") {
  const body = h(tag);
  renderMarkdown(body, text);
  const para = body.firstElementChild;
  if (body.children.length === 1 && para?.tagName === "P") body.replaceChildren(...para.childNodes);
  return body;
}

function labelled(label, text, tag) {
  return h(tag, h("span.result-label", `${label}: `), inlineMarkdown(text));
}

function proseOf(text, tag = "div.prose") {
  const el = h(tag);
  renderMarkdown(el, text);
  return el;
}

function askCard(part) {
  const q = part.input?.question || "";
  const out = part.output;
  if (part.state === "input-available") {
    return h("section.card.ask-card.waiting", { dataset: { toolCallId: part.tool_call_id, state: part.state } },
      h("p.card-kicker", "Question for you · answer below ↓"));
  }
  const answer = part.state === "output-available" && out
    ? (out.dont_know ? "I don't know" : out.text ?? "") : "Not answered.";
  return h("section.card.ask-card", { dataset: { toolCallId: part.tool_call_id, state: part.state } },
    h("p.card-kicker", "Question"), proseOf(q), h("p.small.answer", h("span.muted", "You: "), answer));
}

function planCard(part) {
  const title = part.input?.title || "Plan";
  if (part.state === "output-error") {
    return h("details.note.muted.small", h("summary", "A draft plan had an error; the teacher corrected it."),
      h("pre.plan-error", part.error || ""));
  }
  const card = h("section.card.plan-card", { dataset: { toolCallId: part.tool_call_id, state: part.state } },
    h("p.card-kicker", "Plan"), h("h3", title));
  // While it waits for approval the steps show once, in the dock below; not here as well.
  if (part.state === "input-available") card.append(h("p.muted.small", "Approve it or ask for changes below ↓"));
  else if (part.plan) card.append(h("ol.plan-steps", part.plan.nodes.map((n) => h("li", n.label))));
  else if (part.output?.approve === true) card.append(h("p.small.ok", "✓ You approved this plan."));
  else if (part.output?.approve === false) card.append(h("p.small", `You asked for changes: “${part.output.comment || ""}”`));
  return card;
}

function assessmentCard(part) {
  const a = part.input || {};
  return h("section.card.assessment-card",
    h("p.card-kicker", "Where you start"),
    h("dl",
      a.floor ? [h("dt", "You know"), h("dd", a.floor)] : null,
      a.ceiling ? [h("dt", "Next edge"), h("dd", a.ceiling)] : null,
      a.goal ? [h("dt", "Your goal"), h("dd", a.goal)] : null));
}

export function errorBlock(error, onAction) {
  const labels = { "open-settings": "Open settings", "retry": "Try again", "new-session": "Start a new session", "reload": "Reload" };
  const action = error.action && labels[error.action];
  // A failed turn (it has a kind) can always be tried again once its cause is fixed.
  const retry = error.kind && error.action !== "retry" && error.action !== "reload";
  return h("div.inline-error", { role: "alert" },
    h("p", error.message || "Something went wrong."),
    action ? h("button", { type: "button", onclick: () => onAction(error.action) }, labels[error.action]) : null,
    retry ? h("button.secondary", { type: "button", onclick: () => onAction("retry") }, labels.retry) : null);
}
