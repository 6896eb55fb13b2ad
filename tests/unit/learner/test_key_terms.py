"""The term picker: TF-IDF over the vault's topics, never a stop or function word."""

from __future__ import annotations

from studyhall.core.library.learner.key_terms import STOP, KeyTerms, fold, is_content_word

TOPICS = {
    "heap": ["Binary heap", "A binary heap keeps the smallest value at the root.",
             "Sift down moves the root key down; sift down runs after every pop."],
    "hash": ["Hash table", "A hash table maps each key to a bucket and its value.",
             "Two keys in one bucket are a collision."],
    "bfs": ["Breadth-first search", "A queue holds the vertices still to explore.",
            "Every vertex is visited once."],
    "sort": ["Merge sort", "Merge sort merges two sorted runs; each value moves once per level."],
}


def test_the_topics_own_word_ranks_first_and_a_word_in_most_topics_is_nobodys():
    terms = KeyTerms(TOPICS)
    heap = [t for t, _ in terms.ranked("heap")]
    assert set(heap[:4]) == {"binary", "heap", "root", "sift"}  # each twice in this note only
    assert "value" not in heap  # in most topics: it says what none of them is about
    assert terms.common("values") and not terms.common("bucket")
    assert "bucket" in terms.of("hash") and "bucket" not in terms.of("heap")


def test_stop_and_function_words_numbers_and_short_words_are_never_terms():
    for word in ("the", "following", "processes", "show", "with", "using", "each", "2024",
                 "ab", "it's"):
        assert not is_content_word(word), word
    terms = KeyTerms({"t": ["The following processes show each step using the 2024 data."]})
    assert set(terms.of("t")) == {"step", "data"}
    assert not any(t in STOP for topic in TOPICS for t in KeyTerms(TOPICS).of(topic))


def test_a_plural_counts_as_its_singular():
    assert fold("Buckets") == fold("bucket") == "bucket"
    assert fold("class") == "class" and fold("status") == "status"
    terms = KeyTerms({"a": ["buckets and a bucket"], "b": ["nothing alike here"]})
    assert terms.ranked("a")[0] == ("bucket", terms.idf("bucket") * 2)


def test_a_small_vault_lets_every_content_word_be_key():
    # Under four topics a share means nothing: one topic's words are all its own.
    assert KeyTerms({"a": ["graph vertex"], "b": ["graph edge"]}).of("a") == {
        "graph": KeyTerms({"a": ["graph vertex"], "b": ["graph edge"]}).idf("graph"),
        "vertex": KeyTerms({"a": ["graph vertex"], "b": ["graph edge"]}).idf("vertex")}
