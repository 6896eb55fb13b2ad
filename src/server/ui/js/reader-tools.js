// The reader's dock: "Ask about this" (Ask scoped to the open source and the place on screen),
// "Quiz me" (three questions on what was read or watched so far) and the source's contents.

import { h, replace } from "./dom.js";
import { mountAsk } from "./ask.js";
import { passageHref } from "./ask-view.js";
import { mountQuizMe } from "./quiz-me.js";

/**
 * Build the tools in `dock` for a source of `kind`. `where()` says where the learner is ({t} /
 * {page} / {at}); a moment the learner asked to be taken to is opened through the address, so
 * the view seeks to it. `quizMe({ whole })` quizzes up to that place, or on the whole source.
 * Returns {contents (the element a view draws its outline into), refresh(), show(tab), ask,
 * unmount}.
 */
export function mountReaderTools(dock, { sourceId, kind, where }) {
  const contents = h("div.reader-contents");
  const askPane = h("div.reader-pane.reader-ask", { id: "reader-pane-ask", role: "tabpanel" });
  const quizPane = h("div.reader-pane.reader-quiz", { id: "reader-pane-quiz", role: "tabpanel" });
  const contentsPane = h("div.reader-pane", { id: "reader-pane-contents", role: "tabpanel" }, contents);
  const panes = { ask: askPane, quiz: quizPane, contents: contentsPane };
  const tab = (name, label) => h("button.reader-tab", {
    type: "button", role: "tab", id: `reader-tab-${name}`, "aria-controls": `reader-pane-${name}`,
    dataset: { tab: name }, onclick: () => show(name),
  }, label);
  const tabs = { ask: tab("ask", "Ask about this"), quiz: tab("quiz", "Quiz me"), contents: tab("contents", "Contents") };
  replace(dock, h("div.reader-tools",
    h("div.reader-tabs", { role: "tablist", "aria-label": "About this source" }, Object.values(tabs)),
    askPane, quizPane, contentsPane));

  const ask = mountAsk(askPane, {
    sourceId, compact: true, position: where,
    onNavigate: (moment) => { location.hash = passageHref(moment); },
  });
  const quiz = mountQuizMe(quizPane, { sourceId, kind, where });

  function show(name) {
    for (const [key, pane] of Object.entries(panes)) {
      pane.hidden = key !== name;
      tabs[key].setAttribute("aria-selected", String(key === name));
      tabs[key].tabIndex = key === name ? 0 : -1;
    }
    dock.dataset.readerTab = name;
  }

  /** The Contents tab only when the view drew something into it. */
  function refresh() {
    tabs.contents.hidden = !contents.childElementCount;
    if (tabs.contents.hidden && dock.dataset.readerTab === "contents") show("ask");
  }

  show("ask");
  return {
    contents, refresh, show, ask,
    quizMe(options) { show("quiz"); quiz.start(options); },
    unmount() { ask.unmount(); quiz.unmount(); delete dock.dataset.readerTab; },
  };
}
