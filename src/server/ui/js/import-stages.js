// One wording for an import's stages, shared by Home's import strip, the import dialog and the
// activity dock, so the learner reads the same words in each ("reading for meaning · 3 of 6").

const STEPS = {
  scanning: () => "finding notes",
  reading: (d, t) => (t ? `reading notes · ${d} of ${t}` : "reading notes"),
  extracting: (d, t) => (t ? `adding notes · ${d} of ${t}` : "adding notes"),
  linking: (d, t) => (t ? `linking notes · ${d} of ${t}` : "linking notes"),
  embedding: (d, t) => (t ? `reading for meaning · ${d} of ${t}` : "reading for meaning"),
  clustering: () => "grouping topics",
  layout: () => "laying out the map",
  indexing: (d, t) => (t ? `indexing for search · ${d} of ${t} files` : "indexing for search"),
  done: () => "finishing",
};

/** What an import is doing, with its count when it has one: "linking notes · 3 of 6". */
export function importStep(stage, done, total) {
  return (STEPS[stage] || (() => stage || "starting"))(done ?? 0, total ?? 0);
}
