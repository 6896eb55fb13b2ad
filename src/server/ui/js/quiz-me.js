// "Quiz me" in the reader: three questions on what was read or watched up to the place on
// screen, answered here, graded by the server, and recorded as evidence on the graph's ideas.

import { api } from "./api.js";
import { h, replace } from "./dom.js";
import { passageHref, placeOf } from "./ask-view.js";
import { NO_KEY_LINE, NO_MODEL_WHY } from "./study-this.js";

const VERDICTS = {
  correct: { glyph: "✓", label: "Right" },
  miss: { glyph: "✗", label: "Not quite" },
  "dont-know": { glyph: "?", label: "Not answered" },
};

function placeQuery(where) {
  const out = {};
  if (where?.t !== null && where?.t !== undefined) out.t = Math.max(0, Number(where.t));
  if (where?.page) out.page = Number(where.page);
  if (where?.at) out.at = where.at;
  return out;
}

// "the whole …" in the offer to quiz on all of a source (a place with too little before it).
const WHOLE = { transcript: "lecture", pdf: "PDF", note: "note" };

/** The Quiz me pane in `container` for a source of `kind`; `where()` is read when a quiz is
 *  asked for (`start({ whole: true })` asks on the whole source instead). */
export function mountQuizMe(container, { sourceId, kind, where }) {
  const wholeWord = `the whole ${WHOLE[kind] || "source"}`;
  const startButton = h("button.primary.quiz-start", { type: "button", onclick: () => start() }, "Quiz me on what I've read");
  // Sent here by "Study this" with no model (study-this.js): say why in one line.
  const why = new URLSearchParams(location.hash.split("?")[1] || "").get("why") === NO_MODEL_WHY;
  const intro = h("div.quiz-intro",
    why ? h("p.note.small.quiz-why", NO_KEY_LINE) : null,
    h("p", "Three questions on this source, up to where you are now. Your answers feed your graph and your reviews."),
    startButton);
  const body = h("div.quiz-body");
  replace(container, h("div.quiz-me", intro, body));
  let busy = false;
  let alive = true;

  // On the whole source, from a place with too little before it: the learner's choice.
  const wholeButton = () => h("button.quiz-whole", { type: "button", onclick: () => start({ whole: true }) },
    `Quiz me on ${wholeWord}`);

  async function start({ whole = false } = {}) {
    if (busy) return;
    busy = true;
    startButton.disabled = true;
    container.dataset.quiz = "loading";
    replace(body, h("p.muted.quiz-wait", "Writing three questions…"));
    try {
      const quiz = await api.post(`/api/sources/${encodeURIComponent(sourceId)}/quiz`, whole ? {} : placeQuery(where()));
      if (alive) drawQuiz(quiz);
    } catch (error) {
      container.dataset.quiz = "error";
      const early = error.body?.error === "NotEnoughReadYet";
      replace(body, h("div.inline-error", { role: "alert" }, h("p", error.message), early ? wholeButton() : null));
    } finally {
      busy = false;
      startButton.disabled = false;
    }
  }

  function drawQuiz(quiz) {
    container.dataset.quiz = "open";
    startButton.textContent = "New questions";
    const fieldsets = quiz.questions.map((q, i) => h("fieldset.quiz-q", { dataset: { i: String(i) } },
      h("legend", h("span.quiz-n", `${i + 1}.`), " ", q.prompt),
      q.choices.map((c, j) => h("label.quiz-choice",
        h("input", { type: "radio", name: `${quiz.quiz_id}-q${i}`, value: String(j) }), h("span", c)))));
    const problem = h("p.inline-error.quiz-problem", { role: "alert", hidden: true });
    for (const f of fieldsets) f.addEventListener("change", () => { problem.hidden = true; });
    const check = h("button.primary", { type: "submit" }, "Check answers");
    const skip = h("button", { type: "button", onclick: () => send({ dont_know: true }) }, "I don't know");
    const form = h("form.quiz-form", { onsubmit: (e) => {
      e.preventDefault();
      const picked = fieldsets.map((f) => f.querySelector("input:checked"));
      if (picked.some((x) => !x)) {
        problem.textContent = "Answer every question, or choose “I don't know”.";
        problem.hidden = false;
        return;
      }
      send({ choices: picked.map((x) => [Number(x.value)]) });
    } }, fieldsets, problem, h("div.quiz-actions", check, skip));
    // Fewer than three fit what comes before the place: said, with the whole source offered.
    const few = !quiz.whole && quiz.questions.length < 3
      ? h("p.small.quiz-few", `Only ${quiz.questions.length === 1 ? "one question fits" : `${quiz.questions.length} questions fit`} the text up to ${quiz.up_to || "here"}. `, wholeButton())
      : null;
    replace(body, h("p.small.muted.quiz-from", fromLine(quiz, wholeWord)), few, form);

    async function send(answer) {
      check.disabled = skip.disabled = true;
      try {
        const result = await api.post(`/api/sources/${encodeURIComponent(sourceId)}/quiz/${encodeURIComponent(quiz.quiz_id)}/answers`, answer);
        if (alive) drawResult(quiz, fieldsets, result);
      } catch (error) {
        problem.textContent = error.message;
        problem.hidden = false;
        check.disabled = skip.disabled = false;
      }
    }
  }

  function drawResult(quiz, fieldsets, result) {
    container.dataset.quiz = "graded";
    for (const [i, r] of result.results.entries()) {
      const f = fieldsets[i];
      const v = VERDICTS[r.verdict] || VERDICTS.miss;
      f.dataset.verdict = r.verdict;
      for (const input of f.querySelectorAll("input")) input.disabled = true;
      const source = quiz.questions[i].passage;
      f.append(h("div.quiz-verdict", { class: `quiz-verdict-${r.verdict}` },
        h("strong", h("span", { "aria-hidden": "true" }, `${v.glyph} `), v.label),
        r.verdict !== "correct" && r.expected?.length ? h("span", ` — the answer: ${r.expected.join(", ")}`) : null,
        r.explanation ? h("p.small", r.explanation) : null,
        source ? h("a.small.quiz-source", { href: passageHref(source) }, `Read it again${placeOf(source) ? ` · ${placeOf(source)}` : ""}`) : null));
    }
    const form = fieldsets[0]?.closest("form");
    form?.querySelector(".quiz-actions")?.remove();
    const nodes = result.recorded || [];
    form?.after(h("section.quiz-score", { "aria-live": "polite" },
      h("p.quiz-total", h("strong", `${result.correct} of ${result.total}`), " right"),
      nodes.length ? [h("p.small.muted", "Recorded on these ideas in your graph:"),
        h("ul.quiz-nodes", nodes.map((n) => h("li", h("span.quiz-node-text", n.text),
          typeof n.mastery?.mastery === "number"
            ? h("span.quiz-node-score", ` · mastery ${Math.round(n.mastery.mastery * 100)}%`) : null)))]
        : h("p.small.muted", "None of these passages is in your graph yet, so nothing was recorded.")));
  }

  return { start, unmount() { alive = false; } };
}

function fromLine(quiz, wholeWord) {
  const by = quiz.written_by === "model" ? "Written by your model" : "Built from the passages (no model)";
  const where = quiz.whole ? ` on ${wholeWord}` : quiz.up_to ? ` up to ${quiz.up_to}` : "";
  return `${by}, from ${quiz.passages} passage${quiz.passages === 1 ? "" : "s"}${where}.`;
}
