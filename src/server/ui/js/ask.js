// Ask (#/ask, #/ask?thread=ID): one question box over the learner's material; the answer streams
// with citation chips; follow-ups keep the conversation; every conversation is kept server-side
// and listed in the dock. `mountAsk` is the same component for the reader's "Ask about this".

import { api, ApiError } from "./api.js";
import { h, newId, plural, relativeTime, replace } from "./dom.js";
import { drawExchange, fromRecord } from "./ask-view.js";
import { state } from "./store.js";

/** Is a model set up for the answerer role? (unknown settings: let the server say) */
function answererReady(settings = state.settings) {
  if (!settings || settings.scripted) return true;
  const role = settings.roles?.find((r) => r.role === "answerer");
  if (!role) return true;
  const provider = role.api_base || role.model.split("/")[0].toLowerCase();
  return !settings.needed_keys.includes(provider);
}

/**
 * The Ask component in `container`. `sourceId` / `position` (an object {t, page} or a function
 * returning one, read when the question is asked) scope questions to what the learner is reading.
 * `onThread(id)` hears the conversation's id once it has one; `onNavigate(moment)` is called
 * only when the learner asked to be taken somewhere ("take me to …"). Returns {focus, stop, load, reset,
 * ask, unmount}.
 */
export function mountAsk(container, { sourceId = null, position = null, onThread = null, onNavigate = null, compact = false } = {}) {
  let threadId = null;
  let exchanges = [];  // {x, el}
  let controller = null;
  const log = h("div.ask-log", { role: "log", "aria-label": "Questions and answers" });
  const box = h("textarea.ask-input", {
    rows: 1, placeholder: sourceId ? "Ask about this…" : "Ask about your notes, lectures and PDFs…",
    "aria-label": "Your question", maxlength: 4000, dataset: { slashTarget: "1" },
  });
  const askButton = h("button.primary.ask-send", { type: "submit" }, "Ask");
  const stopButton = h("button.ask-stop", { type: "button", hidden: true, onclick: () => stop() },
    h("span", { "aria-hidden": "true" }, "■ "), "Stop", h("kbd.nav-kbd", "Esc"));
  const hint = h("p.ask-hint.small.muted", { hidden: answererReady() },
    "No model is set up to answer: you will see the passages that match best. ",
    h("a", { href: "#/settings" }, "Add a key in Settings"), ".");
  const form = h("form.ask-form", { onsubmit: (e) => { e.preventDefault(); ask(box.value); } },
    h("div.ask-row", box, askButton, stopButton), hint);
  const empty = h("div.ask-empty", compact ? null : [
    h("p.ask-empty-lead", "Ask anything about what you imported."),
    h("p.muted", "Answers cite the exact passage, page or second they come from — and say plainly when your material does not cover the question. Follow-up questions keep the conversation."),
  ]);
  replace(container, h("div.ask", { class: compact ? "ask-compact" : "" },
    h("div.ask-scroll", h("div.ask-column", empty, log)),
    h("div.ask-bottom", h("div.ask-column", form))));

  box.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      ask(box.value);
    } else if (e.key === "Escape" && controller) {
      e.preventDefault();
      stop();
    }
  });
  box.addEventListener("input", () => grow(box));

  function busy(on) {
    askButton.hidden = on;
    stopButton.hidden = !on;
    container.querySelector(".ask").dataset.busy = on ? "1" : "";
  }

  function history() {
    const turns = [];
    for (const { x } of exchanges) {
      if (!x.answer) continue;  // a question with no answer text gives a follow-up nothing to lean on
      turns.push({ role: "user", text: x.question }, { role: "assistant", text: x.answer });
    }
    return turns.slice(-20);
  }

  function add(x) {
    x.askAgain = () => ask(x.question);  // offered under an answer that was cut off
    const el = h("article.ask-exchange");
    log.append(el);
    const item = { x, el };
    exchanges.push(item);
    empty.hidden = true;
    hint.hidden = true;  // each answer says it itself, in one line
    drawExchange(el, x);
    return item;
  }

  async function ask(text) {
    const question = String(text || "").trim();
    if (!question || controller) return;
    box.value = "";
    grow(box);
    if (!threadId) {
      threadId = newId("ask");
      onThread?.(threadId);
    }
    const turns = history();
    const item = add({ question, streaming: true, answer: "", sources: [], scope: sourceId });
    const { x, el } = item;
    el.scrollIntoView({ block: "start", behavior: "smooth" });
    const where = typeof position === "function" ? position() : position;
    const body = { question, history: turns, thread_id: threadId };
    if (sourceId) Object.assign(body, { source_id: sourceId }, clean(where));
    controller = new AbortController();
    busy(true);
    let frame = 0;
    const redraw = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => { frame = 0; drawExchange(el, x); });
    };
    try {
      await api.stream("/api/ask", body, (name, data) => {
        if (name === "sources") Object.assign(x, { case: data.case, unconfirmed: Boolean(data.unconfirmed), sources: data.sources });
        else if (name === "suggest") x.suggest = (data.moments || []).slice(0, 2);
        else if (name === "navigate") {
          x.navigate = data;
          onNavigate?.(data);
        }
        else if (name === "text-delta") x.answer += data.text;
        else if (name === "finish") {
          x.answered = data.answered;
          x.cited = data.cited || [];
          if (!data.answered) Object.assign(x, { noModel: true, reason: data.reason, passages: data.passages || [] });
        } else if (name === "error" && data.kind === "network") x.cutOff = true;  // the app went away
        else if (name === "error") x.error = data;
        redraw();
      }, { signal: controller.signal });
    } catch (error) {
      if (error.name === "AbortError") x.stopped = true;
      else x.error = { message: error instanceof ApiError ? error.message : "The question could not be sent." };
    } finally {
      if (frame) cancelAnimationFrame(frame);
      controller = null;
      x.streaming = false;
      drawExchange(el, x);
      busy(false);
      container.dispatchEvent(new CustomEvent("studyhall:asked", { bubbles: true, detail: { threadId } }));
    }
  }

  function stop() {
    controller?.abort();
  }

  function reset() {
    stop();
    threadId = null;
    exchanges = [];
    replace(log);
    empty.hidden = false;
    hint.hidden = answererReady();
  }

  function load(thread) {
    reset();
    threadId = thread.id;
    for (const r of thread.exchanges) add(fromRecord(r));
    log.lastElementChild?.scrollIntoView({ block: "start" });
  }

  return {
    focus: () => box.focus(),
    ask, stop, reset, load,
    get threadId() { return threadId; },
    get busy() { return Boolean(controller); },
    unmount: () => stop(),
  };
}

function clean(where) {
  const out = {};
  if (where && where.t !== null && where.t !== undefined) out.t = Math.max(0, Number(where.t));
  if (where && where.page) out.page = Number(where.page);
  if (where && where.at) out.at = String(where.at);
  return out;
}

function grow(box) {
  box.style.height = "auto";
  box.style.height = `${Math.min(box.scrollHeight, 180)}px`;
}

// --- the #/ask screen: the component in the main area, the history in the dock -------------

export async function mountAskScreen({ main, dock }, params, query) {
  document.body.dataset.view = "ask";
  const area = h("div.ask-area");
  const newButton = h("button.ask-new", { type: "button", onclick: () => fresh() }, "+ New conversation");
  replace(main, h("section.ask-screen", { "aria-labelledby": "ask-title" },
    h("header.ask-head", h("h1", { id: "ask-title" }, "Ask"), newButton), area));
  const historyList = h("ul.ask-history", { "aria-label": "Earlier conversations" });
  replace(dock, h("div.dock-pad.ask-dock", h("h2", "Earlier questions"), historyList));

  const component = mountAsk(area, { onThread: (id) => {
    history.replaceState(null, "", `#/ask?thread=${id}`);  // no hashchange: the view stays
  } });
  area.addEventListener("studyhall:asked", () => drawHistory());

  async function drawHistory() {
    let threads = [];
    try {
      threads = (await api.get("/api/asks")).threads;
    } catch (error) {
      replace(historyList, h("li.muted.small", error.message));
      return;
    }
    const current = component.threadId;
    replace(historyList, threads.length ? threads.map((t) => h("li", h("a.ask-history-link", {
      href: `#/ask?thread=${t.id}`, "aria-current": t.id === current ? "page" : null, title: t.title,
    }, h("span.ask-history-title", t.title),
    h("span.ask-history-meta", `${plural(t.questions, "question")} · ${relativeTime(t.updated_at)}`)))) :
      h("li.muted.small.ask-history-empty", "Your questions are kept here, so you can come back to an answer."));
  }

  async function open(id) {
    if (!id || id === component.threadId) return;
    try {
      component.load(await api.get(`/api/asks/${encodeURIComponent(id)}`));
    } catch (error) {
      component.reset();
      area.querySelector(".ask-log").append(h("div.inline-error", { role: "alert" }, h("p", error.message)));
    }
    await drawHistory();
  }

  function fresh() {
    component.reset();
    history.replaceState(null, "", "#/ask");
    drawHistory();
    component.focus();
  }

  await open(query.get("thread"));
  drawHistory();
  component.focus();
  return {
    update: (_params, q) => (q.get("thread") ? open(q.get("thread")) : fresh()),
    focusSearch: () => component.focus(),
    handleKey: (e) => {
      if (e.key === "Escape" && component.busy) {
        component.stop();
        return true;
      }
      return false;
    },
    unmount: () => component.unmount(),
  };
}
