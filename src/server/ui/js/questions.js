// The question dock, pinned under the transcript: quizzes (choices in the order the server
// shuffled them), open questions (options or free text), and plan approval. Keys: 1–9 choose,
// Enter submits, ? answers "I don't know". After a quiz, the verdicts and explanations show here
// at once, while the teacher's reply streams above.

import { h, replace } from "./dom.js";
import { renderMarkdown } from "./markdown.js";
import { inlineMarkdown, resultBlock } from "./transcript.js";
import { planApproval } from "./plan-approval.js";

export class QuestionDock {
  constructor(host, { onAnswer }) {
    this.host = host;
    this.onAnswer = onAnswer;
    this.pending = null;
    this.busy = false;
  }

  get active() {
    return Boolean(this.pending) || this.host.classList.contains("showing-result");
  }

  clear() {
    this.pending = null;
    this.queued = null;
    this.host.classList.remove("showing-result");
    this.host.hidden = true;
    replace(this.host);
  }

  /** Leave the verdict: the question that arrived meanwhile (if any) comes next. */
  dismissResult() {
    const next = this.queued;
    this.queued = null;
    this.clear();
    if (next) this.show(next);
  }

  setBusy(busy) {
    this.busy = busy;
    this.host.classList.toggle("busy", busy);
    for (const b of this.host.querySelectorAll("button[data-submit]")) b.disabled = busy || !this.ready();
  }

  show(pending) {
    if (this.pending && this.pending.tool_call_id === pending.tool_call_id) return;
    if (this.host.classList.contains("showing-result")) {
      // The verdict stays until the learner has read it; the next question waits behind it.
      this.queued = pending;
      const next = this.host.querySelector(".result-view button.primary");
      if (next) next.textContent = NEXT_LABEL[pending.name] || "Next";
      return;
    }
    this.pending = pending;
    this.error = null;
    this.host.hidden = false;
    this.host.classList.remove("showing-result");
    if (pending.name === "quiz") this.startQuiz(pending);
    else if (pending.name === "ask_user_question") this.startAsk(pending);
    else if (pending.name === "plan_init") this.startPlan(pending);
    else return this.clear();
    // Bring the keyboard to the question, unless the learner is typing elsewhere on purpose.
    const active = document.activeElement;
    if (!active || active === document.body || active.classList.contains("composer-input") || active.closest(".question-dock")) {
      // The region, not its first choice: nothing looks picked before the learner picks.
      const target = pending.name === "quiz" ? this.host.querySelector(".dock-inner") : this.host.querySelector(".answer-input, button.primary");
      target?.focus({ preventScroll: true });
    }
  }

  /** The verdicts of the quiz just answered (the output of its tool-result event). */
  showResult(output) {
    this.pending = null;
    this.host.hidden = false;
    this.host.classList.add("showing-result");
    this.queued = null;
    const done = h("button.primary", { type: "button", onclick: () => this.dismissResult() }, "Continue");
    replace(this.host, h("div.dock-inner.result-view", { role: "region", "aria-label": "Your result" },
      h("p.dock-kicker", `${output.correct} of ${output.total} correct`),
      (output.results || []).map((r) => resultBlock(r)),
      h("div.dock-actions", done)));
    done.focus({ preventScroll: true });
  }

  showError(message) {
    const slot = this.host.querySelector(".dock-error");
    if (slot) {
      slot.textContent = message;
      slot.hidden = false;
    }
  }

  // --- quiz --------------------------------------------------------------------------------

  startQuiz(pending) {
    const questions = pending.presented?.questions || [];
    this.kind = "quiz";
    this.questions = questions;
    this.answers = questions.map(() => null);
    this.current = 0;
    this.renderQuiz();
  }

  renderQuiz() {
    const total = this.questions.length;
    const blocks = this.questions.map((q, qi) => this.questionBlock(q, qi));
    // Several questions: one at a time (the dock stays short at 1024×700), with a step line.
    this.stepper = total > 1 ? h("div.quiz-steps",
      h("button.small.step-back", { type: "button", onclick: () => this.focusQuestion(this.current - 1, true) }, "← Back"),
      h("span.step-count.muted.small", { "aria-live": "polite" }),
      h("button.small.step-next", { type: "button", onclick: () => this.focusQuestion(this.current + 1, true) }, "Next →")) : null;
    replace(this.host, h("div.dock-inner", { role: "region", "aria-label": "Quiz", tabindex: "-1", class: total > 1 ? "one-at-a-time" : "" },
      h("p.dock-kicker", total > 1 ? `${total} questions` : "Question"),
      blocks,
      h("p.dock-error.form-error", { role: "alert", hidden: true }),
      h("div.dock-foot", this.stepper, this.actions("Check answer" + (total > 1 ? "s" : ""), () => this.submitQuiz())),
      h("p.keys.muted.small", h("kbd", "1"), "–", h("kbd", "9"), " choose · ", h("kbd", "Enter"),
        " check · ", h("kbd", "?"), " I don't know")));
    this.syncSteps();
    this.setBusy(this.busy);
  }

  syncSteps() {
    if (!this.stepper) return;
    const n = this.questions.length;
    this.stepper.querySelector(".step-count").textContent = `Question ${this.current + 1} of ${n}`;
    this.stepper.querySelector(".step-back").disabled = this.current === 0;
    this.stepper.querySelector(".step-next").disabled = this.current === n - 1;
  }

  questionBlock(q, qi) {
    const answer = this.answers[qi];
    const block = h("fieldset.question", { class: qi === this.current ? "current" : "", dataset: { index: qi } });
    const prompt = h("div.prose.question-prompt");
    renderMarkdown(prompt, q.prompt);
    block.append(h("legend.visually-hidden", `Question ${qi + 1}`), prompt);
    block.addEventListener("focusin", () => this.focusQuestion(qi));
    if (q.choices) {
      const many = q.select === "many";
      const chosen = answer?.choices || new Set();
      block.append(h("div.choices", { role: many ? "group" : "radiogroup" }, q.choices.map((text, ci) =>
        h("button.choice", {
          type: "button", role: many ? "checkbox" : "radio",
          "aria-checked": chosen.has(ci) ? "true" : "false",
          dataset: { choice: ci },
          onclick: () => this.choose(qi, ci),
        }, h("span.choice-key", String(ci + 1)), inlineMarkdown(text, "span.choice-text")))));
      if (many) block.append(h("p.muted.small", "Choose every answer that applies."));
    } else {
      const input = h("input.answer-input", {
        type: q.input === "number" ? "text" : "text", inputmode: q.input === "number" ? "decimal" : "text",
        "aria-label": `Your answer to question ${qi + 1}`, placeholder: q.input === "number" ? "A number" : "Your answer",
        value: answer?.text ?? (answer?.number ?? ""),
      });
      input.addEventListener("input", () => {
        const v = input.value.trim();
        this.answers[qi] = v ? (q.input === "number" ? { number: v } : { text: v }) : null;
        this.syncSubmit();
      });
      input.addEventListener("keydown", (e) => {
        if (e.key === "Enter") {
          e.preventDefault();
          this.enter();
        }
      });
      block.append(input);
    }
    block.append(h("button.dont-know", {
      type: "button", "aria-pressed": answer?.dont_know ? "true" : "false",
      onclick: () => this.dontKnow(qi),
    }, "I don't know"));
    return block;
  }

  focusQuestion(qi, moveFocus = false) {
    if (this.current === qi || qi < 0 || qi >= this.questions.length) return;
    this.current = qi;
    this.host.querySelectorAll("fieldset.question").forEach((f, i) => f.classList.toggle("current", i === qi));
    this.syncSteps();
    if (moveFocus) this.host.querySelector("fieldset.question.current .choice, fieldset.question.current input")?.focus({ preventScroll: true });
  }

  choose(qi, ci) {
    if (this.kind === "ask") {
      this.askChoose(ci);
      return;
    }
    const q = this.questions[qi];
    if (!q?.choices || ci >= q.choices.length) return;
    const prev = this.answers[qi];
    let set = prev?.choices ? new Set(prev.choices) : new Set();
    if (q.select === "many") {
      if (set.has(ci)) set.delete(ci); else set.add(ci);
    } else {
      set = new Set([ci]);
    }
    this.answers[qi] = set.size ? { choices: set } : null;
    this.refreshQuestion(qi);
    if (q.select !== "many" && qi < this.questions.length - 1) this.advance(qi);
  }

  dontKnow(qi) {
    if (this.kind === "ask") {
      this.ask.dontKnow = !this.ask.dontKnow;
      if (this.ask.dontKnow) this.ask.option = null;
      this.refreshAsk();
      return;
    }
    this.answers[qi] = this.answers[qi]?.dont_know ? null : { dont_know: true };
    this.refreshQuestion(qi);
    if (this.answers[qi] && qi < this.questions.length - 1) this.advance(qi);
  }

  /** After an answer: the next question, once the learner has seen their pick register. */
  advance(qi) {
    const focused = this.host.contains(document.activeElement) && document.activeElement !== this.host.querySelector(".dock-inner");
    clearTimeout(this.advanceTimer);
    this.advanceTimer = setTimeout(() => {
      if (this.kind === "quiz" && this.current === qi) this.focusQuestion(qi + 1, focused);
    }, 250);
  }

  refreshQuestion(qi) {
    // Update in place (not re-render): keyboard focus stays on the button just pressed.
    const block = this.host.querySelector(`fieldset.question[data-index="${qi}"]`);
    const a = this.answers[qi];
    block?.querySelectorAll(".choice").forEach((b) => b.setAttribute("aria-checked",
      a?.choices?.has(Number(b.dataset.choice)) ? "true" : "false"));
    block?.querySelector(".dont-know")?.setAttribute("aria-pressed", a?.dont_know ? "true" : "false");
    const input = block?.querySelector("input");
    if (input && a?.dont_know) input.value = "";
    block?.classList.toggle("answered", Boolean(a));
    this.syncSubmit();
  }

  ready() {
    if (this.kind === "quiz") return this.answers.every(Boolean);
    if (this.kind === "ask") return this.askAnswer() !== null;
    return true;
  }

  syncSubmit() {
    for (const b of this.host.querySelectorAll("button[data-submit]")) b.disabled = this.busy || !this.ready();
  }

  submitQuiz() {
    if (!this.ready() || this.busy) return;
    const all = this.answers;
    let answer;
    if (all.every((a) => a.dont_know)) {
      answer = { dont_know: true };
    } else if (all.every((a) => a.choices)) {
      answer = { choices: all.map((a) => [...a.choices].sort((x, y) => x - y)) };
    } else {
      answer = { responses: all.map((a) => (a.choices ? { choices: [...a.choices].sort((x, y) => x - y) }
        : a.dont_know ? { dont_know: true } : a.number !== undefined ? { number: Number(a.number) } : { text: a.text })) };
    }
    this.onAnswer(this.pending.tool_call_id, answer);
  }

  // --- open question -------------------------------------------------------------------------

  startAsk(pending) {
    this.kind = "ask";
    const input = pending.input || {};
    const options = input.options || [];
    const free = !options.length || input.allow_free_text === true;
    this.ask = { options, free, option: null, dontKnow: false };
    const prompt = h("div.prose.question-prompt");
    renderMarkdown(prompt, input.question || "");
    this.textarea = free ? h("textarea.answer-input", { rows: 2, "aria-label": "Your answer", placeholder: options.length ? "Or write your own answer" : "Your answer" }) : null;
    this.textarea?.addEventListener("input", () => {
      if (this.textarea.value.trim()) this.ask.option = null;
      this.refreshAsk();
    });
    this.textarea?.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && !e.shiftKey) {
        e.preventDefault();
        this.enter();
      }
    });
    replace(this.host, h("div.dock-inner", { role: "region", "aria-label": "Question", tabindex: "-1" },
      h("p.dock-kicker", "Question"), prompt,
      options.length ? h("div.choices", { role: "radiogroup" }, options.map((text, i) => h("button.choice", {
        type: "button", role: "radio", "aria-checked": "false", dataset: { choice: i },
        onclick: () => this.choose(0, i),
      }, h("span.choice-key", String(i + 1)), inlineMarkdown(text, "span.choice-text")))) : null,
      this.textarea,
      h("button.dont-know", { type: "button", "aria-pressed": "false", onclick: () => this.dontKnow(0) }, "I don't know"),
      h("p.dock-error.form-error", { role: "alert", hidden: true }),
      this.actions("Send answer", () => this.submitAsk())));
    this.setBusy(this.busy);
    (this.textarea && !options.length ? this.textarea : this.host.querySelector(".dock-inner"))?.focus({ preventScroll: true });
  }

  askChoose(i) {
    if (i >= this.ask.options.length) return;
    this.ask.option = i;
    this.ask.dontKnow = false;
    if (this.textarea) this.textarea.value = "";
    this.refreshAsk();
  }

  refreshAsk() {
    this.host.querySelectorAll(".choice").forEach((b, i) => b.setAttribute("aria-checked", i === this.ask.option ? "true" : "false"));
    this.host.querySelector(".dont-know")?.setAttribute("aria-pressed", this.ask.dontKnow ? "true" : "false");
    this.syncSubmit();
  }

  askAnswer() {
    if (this.ask.dontKnow) return { dont_know: true };
    if (this.ask.option !== null) return { option: this.ask.option };
    const text = this.textarea?.value.trim();
    return text ? { text } : null;
  }

  submitAsk() {
    const answer = this.askAnswer();
    if (answer && !this.busy) this.onAnswer(this.pending.tool_call_id, answer);
  }

  // --- plan approval -----------------------------------------------------------------------

  startPlan(pending) {
    this.kind = "plan";
    replace(this.host, planApproval(pending, (answer) => this.onAnswer(pending.tool_call_id, answer)));
    this.setBusy(this.busy);
  }

  // --- shared ------------------------------------------------------------------------------

  actions(label, submit) {
    this.submit = submit;
    return h("div.dock-actions", h("button.primary", { type: "button", "data-submit": "1", onclick: submit }, label));
  }

  enter() {
    if (this.kind === "plan") {
      if (!this.busy) this.onAnswer(this.pending.tool_call_id, { approve: true });
    } else if (this.ready()) {
      this.submit?.();
    } else if (this.kind === "quiz" && this.answers[this.current]) {
      this.focusQuestion(Math.min(this.current + 1, this.questions.length - 1));
    }
  }

  /** Dock keys; returns true when the key was used. */
  handleKey(e) {
    if (this.host.classList.contains("showing-result")) {
      if (e.key === "Enter" || e.key === "Escape") {
        this.dismissResult();
        return true;
      }
      return false;
    }
    if (!this.pending) return false;
    if (/^[1-9]$/.test(e.key) && (this.kind === "quiz" || this.kind === "ask")) {
      this.choose(this.current || 0, Number(e.key) - 1);
      return true;
    }
    if (e.key === "?" && (this.kind === "quiz" || this.kind === "ask")) {
      this.dontKnow(this.current || 0);
      return true;
    }
    if (e.key === "Enter") {
      this.enter();
      return true;
    }
    return false;
  }
}

const NEXT_LABEL = { quiz: "Next question", ask_user_question: "Next question", plan_init: "See the plan" };
