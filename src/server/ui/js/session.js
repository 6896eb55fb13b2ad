// The session screen: the transcript (≤ 72ch), the question dock pinned under it, the composer,
// and the plan tree in the dock. Turns stream token by token; a reload mid-turn or mid-question
// picks up from the record (the server keeps every part).

import { api, ApiError } from "./api.js";
import { h, newId, replace } from "./dom.js";
import { go } from "./router.js";
import { emit, on, refreshChats } from "./store.js";
import { QuestionDock } from "./questions.js";
import { coverageText, holdExtraction, renderSessionDock, setCoverage } from "./plantree.js";
import { errorBlock, fillAssistant, isSteer, messageElement, renderTranscript } from "./transcript.js";
import { TurnStream } from "./turn.js";
import { modelWait } from "./model-wait.js";
import { openNewSession } from "./dialogs.js";
import { toast } from "./toast.js";
import { followExtraction, watchActivity } from "./activity.js";

const SKIP_HINT = "Skip it and write instead…";  // one line in the composer at 1024 px

export async function mountSession({ main, dock }, params, query) {
  const chatId = params.id;
  document.body.dataset.view = "session";
  const title = h("h1.session-title", "Session");
  const stopButton = h("button.stop", { type: "button", hidden: true }, "Stop");
  const list = h("div.transcript", { role: "log", "aria-label": "Transcript", "aria-live": "off" });
  const dockHost = h("div.question-dock", { hidden: true });
  const input = h("textarea.composer-input", { rows: 1, "aria-label": "Message to the teacher", placeholder: "Write to the teacher…", maxlength: "20000" });
  const send = h("button.primary.send", { type: "submit" }, "Send");
  // "Send as written": this one message skips the privacy scrubber (see Settings → Privacy).
  const asWritten = h("input.as-written", { type: "checkbox", id: "as-written" });
  const asWrittenLabel = h("label.as-written-label.muted.small", { for: "as-written",
    title: "Normally e-mails, phone numbers, names and the like are replaced by placeholders before a hosted model sees them. Tick this to send this message exactly as you wrote it." },
    asWritten, " Send as written");
  const composer = h("form.composer", input, h("div.composer-actions", asWrittenLabel, stopButton, send));
  const scroller = h("div.session-scroll", h("div.column", list));
  const status = h("p.turn-status.muted.small", { role: "status", "aria-live": "polite" });
  replace(main, h("section.session", { "aria-labelledby": "session-title" },
    h("header.session-header", h("div.column", title)),
    scroller,
    h("div.session-bottom", h("div.column", status, dockHost, composer))));
  title.id = "session-title";

  let chat = null;
  let streaming = false;
  let disposed = false;
  let errorEl = null;
  const ctx = { chatId, streamingId: null };
  const questions = new QuestionDock(dockHost, { onAnswer: (id, answer) => answer_(id, answer) });

  // --- rendering -----------------------------------------------------------------------------

  // Follow the conversation while the learner is at the bottom; stay put once they scroll up.
  let pinned = true;
  const nearBottom = () => pinned;
  const toBottom = () => {
    scroller.scrollTop = scroller.scrollHeight;
    pinned = true;
  };
  scroller.addEventListener("scroll", () => {
    pinned = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 80;
  }, { passive: true });
  const keepPinned = new ResizeObserver(() => {
    if (pinned) scroller.scrollTop = scroller.scrollHeight;
  });
  keepPinned.observe(scroller);
  keepPinned.observe(list);

  function renderAll() {
    title.textContent = chat.title || chat.topic || "New session";
    document.title = `${chat.title || chat.topic || "Session"} · Studyhall`;
    renderTranscript(list, chat.messages, ctx);
    renderDock();
    const pending = chat.pending?.[0];
    if (pending) questions.show(pending);
    else if (!questions.host.classList.contains("showing-result")) questions.clear();
    input.placeholder = pending ? SKIP_HINT : "Write to the teacher…";
    // The last turn failed: the record keeps why (a reload still says it) and what fixes it.
    if (chat.failure && !streaming && !chat.turn_running) showError(chat.failure);
    if (owesReply() && !errorEl) {
      const cut = chat.messages[chat.messages.length - 1]?.role === "assistant";
      list.append(h("div.owed", h("p.muted.small", cut ? "This answer did not finish." : "No answer to this yet."),
        h("button.small", { type: "button", onclick: () => run(`/api/chats/${chatId}/continue`, {}) }, "Try again")));
    }
  }

  /** The learner spoke last, or the answer was cut off, and nothing is running. */
  function owesReply() {
    if (streaming || chat.turn_running || chat.pending?.length) return false;
    const last = chat.messages[chat.messages.length - 1];
    if (last && last.parts.some((p) => p.type === "data" && p.name === "incomplete")) return true;
    return Boolean(last && last.role === "user" && !last.parts.some((p) => p.type === "steer"));
  }

  function renderDock() {
    renderSessionDock(dock, chat, { onExtract: extract });
    api.get(`/api/chats/${chatId}/coverage`).then((c) => {
      setCoverage(dock, coverageText(c));
      holdExtraction(dock, c.needs_key);
    }).catch(() => {});
  }

  let frame = 0;
  const dirty = new Set();
  function changed(messageId, structural) {
    if (structural) {
      const message = chat.messages.find((m) => m.id === messageId);
      const old = list.querySelector(`[data-message-id="${CSS.escape(messageId)}"]`);
      const el = message && messageElement(message, ctx, previousAgent(message));
      if (old && el) old.replaceWith(el);
      else if (el) list.append(el);
      return scheduleScroll();
    }
    dirty.add(messageId);
    if (!frame) frame = requestAnimationFrame(flush);
  }
  function flush() {
    frame = 0;
    const stick = nearBottom();
    for (const id of dirty) {
      const message = chat.messages.find((m) => m.id === id);
      const el = list.querySelector(`[data-message-id="${CSS.escape(id)}"]`);
      if (message && el) fillAssistant(el, message, ctx);
    }
    dirty.clear();
    if (stick) toBottom();
  }
  function scheduleScroll() {
    if (nearBottom()) requestAnimationFrame(toBottom);
  }
  function previousAgent(message) {
    const i = chat.messages.indexOf(message);
    for (let j = i - 1; j >= 0; j--) {
      const m = chat.messages[j];
      if (m.role === "assistant") return m.agent;
      if (!m.parts.some((p) => p.type === "steer")) return null;
    }
    return null;
  }

  // While a turn runs, say how long the model has been silent (model-wait.js).
  const wait = modelWait(status, () => streaming);

  function setStreaming(on_) {
    streaming = on_;
    if (on_) wait.start();
    else wait.stop();
    stopButton.hidden = !on_;
    send.disabled = on_;
    list.setAttribute("aria-busy", on_ ? "true" : "false");
    questions.setBusy(on_);
    status.textContent = on_ ? "The teacher is writing…" : "";
    document.body.dataset.streaming = on_ ? "1" : "";
    document.body.dataset.turn = on_ ? "streaming" : "loading";
  }

  function showError(error) {
    errorEl?.remove();
    errorEl = errorBlock(error, act);
    list.append(errorEl);
    scheduleScroll();
  }

  function act(action) {
    errorEl?.remove();
    errorEl = null;
    if (action === "open-settings") go("#/settings");
    else if (action === "retry") run(`/api/chats/${chatId}/continue`, {});
    else if (action === "new-session") openNewSession(chat.topic || "");
    else load();
  }

  // --- turns -------------------------------------------------------------------------------

  async function run(path, body, { retries = 5 } = {}) {
    setStreaming(true);
    errorEl?.remove();
    errorEl = null;
    list.querySelector(".owed")?.remove();
    let failed = null;
    const stream = new TurnStream(chat.messages, {
      onChange: (id, structural, event) => { wait.heard(event); ctx.streamingId = stream.streamingId; changed(id, structural); },
      onQuestion: () => {},
      onResult: (data) => {
        if (data.name === "quiz" && data.output) questions.showResult(data.output);
        else if (questions.pending?.tool_call_id === data.tool_call_id) questions.clear();
      },
      onError: (error) => { failed = error; },
      onFinish: () => {},
    });
    try {
      await api.stream(path, body, (name, data) => stream.handle(name, data));
    } catch (error) {
      // Only "a turn is running" is worth waiting for; any other 409 (already answered,
      // nothing to continue) will not change by retrying.
      const busy = error instanceof ApiError && error.status === 409 && error.body?.error === "BusyError";
      if (busy && retries > 0 && !disposed) {
        // Another turn runs on this chat (a wake-up, another window): wait, then try again.
        status.textContent = "Waiting for the current turn to finish…";
        await new Promise((r) => setTimeout(r, 1000));
        return run(path, body, { retries: retries - 1 });
      }
      failed = { message: error.message, action: error.status === 409 ? "reload" : null };
      if (questions.pending) questions.showError(error.message);
    } finally {
      ctx.streamingId = null;
      setStreaming(false);
    }
    if (disposed) return;
    await load({ quiet: true });
    if (failed && !(failed.action === null && questions.pending)) {
      list.querySelector(".owed")?.remove();  // the error says it, with its own action
      showError(failed);
    }
    refreshChats();
    watchActivity();
  }

  function sendMessage(text, asWrittenNow = false) {
    const id = newId("msg");
    chat.messages.push({ id, role: "user", agent: null, parts: [{ type: "text", text }], created_at: new Date().toISOString() });
    list.append(messageElement(chat.messages[chat.messages.length - 1], ctx));
    questions.clear();
    toBottom();
    return run(`/api/chats/${chatId}/messages`, asWrittenNow ? { text, id, as_written: true } : { text, id });
  }

  function answer_(toolCallId, answer) {
    if (streaming) return;
    settleLocally(toolCallId, answer);
    run(`/api/chats/${chatId}/answers`, { tool_call_id: toolCallId, answer });
  }

  /** The answer counts at once: the dock, the phase bar and the input hint stop waiting for
   *  it before the teacher's reply streams (the server's record replaces this at the end). */
  function settleLocally(toolCallId, answer) {
    const pending = chat.pending?.find((p) => p.tool_call_id === toolCallId);
    if (!pending) return;
    chat.pending = chat.pending.filter((p) => p !== pending);
    if (pending.name === "plan_init" && answer.approve === true && pending.plan) {
      chat.phase = "teach";
      chat.plan = { ...pending.plan, title: pending.input?.title || "Plan", tool_call_id: toolCallId,
        nodes: pending.plan.nodes.map((n) => ({ ...n, status: "upcoming" })) };
    }
    for (const m of chat.messages) {
      const part = m.parts.find((p) => p.type === "tool-call" && p.tool_call_id === toolCallId);
      if (!part) continue;
      if (pending.name !== "quiz") Object.assign(part, { state: "output-available", output: answer });
      changed(m.id, true);
    }
    if (pending.name !== "quiz") questions.clear();  // a quiz's verdict shows in the dock
    input.placeholder = chat.pending.length ? SKIP_HINT : "Write to the teacher…";
    renderSessionDock(dock, chat, { onExtract: extract });
  }

  composer.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text || streaming || !chat) return;  // nothing is sent before the record is loaded
    input.value = "";
    autosize();
    const written = asWritten.checked;
    asWritten.checked = false;  // per message: the next one is scrubbed again
    sendMessage(text, written);
  });
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      composer.requestSubmit();
    }
  });
  const autosize = () => {
    input.style.height = "auto";
    input.style.height = `${Math.min(input.scrollHeight, 220)}px`;
  };
  input.addEventListener("input", autosize);
  stopButton.addEventListener("click", () => api.post(`/api/chats/${chatId}/stop`).catch(() => {}));

  async function extract() {
    try {
      const run_ = await api.post(`/api/chats/${chatId}/extract`);
      setCoverage(dock, "Adding to your graph…");
      watchActivity();
      followExtraction(run_.run_id).then((done) => {
        if (!disposed) renderDock();
        if (done?.status === "done") {
          toast(`Added to your graph: ${done.propositions} new idea${done.propositions === 1 ? "" : "s"}.`, { action: ["Show graph", () => go("#/")] });
          emit("graph-changed");
        } else if (done) {
          toast(done.error || "Adding to the graph stopped.", { kind: "error" });
        }
      });
    } catch (error) {
      toast(error.message, { kind: "error" });
    }
  }

  // --- loading -----------------------------------------------------------------------------

  async function load({ quiet = false } = {}) {
    try {
      chat = await api.get(`/api/chats/${chatId}`);
    } catch (error) {
      replace(list, h("div.inline-error", { role: "alert" }, h("p", error.message),
        h("button", { type: "button", onclick: () => go("#/") }, "Back to the graph")));
      return false;
    }
    if (disposed) return false;
    if (input.disabled && !waiting) { input.disabled = false; send.disabled = false; }
    const stick = quiet ? nearBottom() : true;
    renderAll();
    if (stick) toBottom();
    if (chat.turn_running && !streaming) waitForTurn();
    else if (!streaming) document.body.dataset.turn = "idle";  // tests wait for this
    return true;
  }

  let waiting = false;
  async function waitForTurn() {
    // A turn started elsewhere (before a reload, or a wake-up from a finished job).
    if (waiting) return;
    waiting = true;
    document.body.dataset.turn = "streaming";
    status.textContent = "The teacher is still answering…";
    questions.setBusy(true);
    send.disabled = true;
    while (!disposed && chat.turn_running) {
      await new Promise((r) => setTimeout(r, 800));
      if (disposed) break;
      try {
        chat = await api.get(`/api/chats/${chatId}`);
      } catch {
        break;
      }
      renderAll();
    }
    waiting = false;
    if (disposed) return;
    document.body.dataset.turn = "idle";
    status.textContent = "";
    questions.setBusy(false);
    send.disabled = false;
    scheduleScroll();
  }

  const activityOff = on("activity-changed", (item) => {
    if (item.chat_id === chatId && !streaming && !disposed) load({ quiet: true });
  });

  // The composer opens once the record is here: a message typed earlier would have no
  // transcript to join (and a fast typist would lose it).
  input.disabled = true;
  send.disabled = true;
  if (!(await load())) return { unmount() { disposed = true; activityOff(); } };
  const focusMessage = (id) => {
    const el = id && list.querySelector(`[data-message-id="${CSS.escape(id)}"]`);
    if (el) {
      el.scrollIntoView({ block: "center" });
      el.classList.add("flash");
      setTimeout(() => el.classList.remove("flash"), 1600);
    }
  };
  focusMessage(query.get("m"));
  if (query.get("start") === "1" && !chat.messages.some((m) => !isSteer(m)) && chat.topic) {  // a note's material is no line
    history.replaceState(null, "", `#/session/${chatId}`);
    sendMessage(query.get("goal") ? "Let's carry on with my goal." : chat.node_id ? `I'd like to study my note “${chat.topic}”.` : `I'd like to learn about ${chat.topic}.`);
  } else if (!chat.pending?.length) {
    input.focus({ preventScroll: true });
  }
  return {
    update(p, q) {
      focusMessage(q.get("m"));
    },
    handleKey(e) {
      return questions.handleKey(e);
    },
    unmount() {
      disposed = true;
      wait.stop();
      activityOff();
      keepPinned.disconnect();
      cancelAnimationFrame(frame);
      document.body.dataset.view = "";
      document.body.dataset.streaming = "";
      document.body.dataset.turn = "";
      document.title = "Studyhall";
    },
  };
}

