"""The model-free deck: a card only where a good one exists — a definition, or a statement
whose blank is a key term of its note — prompts unique across the deck, never an answer that
only repeats the prompt's subject, and plain text (no raw wikilinks or Markdown)."""

from __future__ import annotations

from studyhall.core.contracts.graph import Evidence, PropositionCreated
from studyhall.core.library.graph.snapshot import Ledgers, fold_snapshot
from studyhall.core.library.learner.deck import Deck, answers_own_subject
from studyhall.core.library.learner.prompts import BLANK

from tests.support.graph_events import cp, prop
from tests.support.library_session import at


def topic(node: str, title: str, *lines: str) -> PropositionCreated:
    source = f"note_{node}"
    quotes = [f"# {title}", *lines]
    return PropositionCreated(
        id=f"prp_{node}", node_id=node, text=title, source_id=source, run_id="r1", at=at(0),
        evidence=tuple(Evidence(source_id=source, message_id=f"{source}#{title}", quote=q)
                       for q in quotes))


BOILER = "Status: draft, revise this before the exam."
VAULT = [
    topic("heap", "Binary heap", "A binary heap is a complete binary tree kept in an array.",
          "- **Sift down**: moves the root key down until both children are larger.",
          "Insertion into a [[Binary heap|heap]] costs logarithmic time in its keys.", BOILER,
          "![[heap.png]]", "It keeps the smallest key at the root of the array tree."),
    topic("hash", "Hash table", "A hash table maps keys to buckets through a hash function.",
          "Chaining keeps a small list of entries in every bucket.", BOILER),
    topic("bfs", "Breadth-first search", "A queue holds every discovered vertex still to explore.",
          BOILER),
    topic("dfs", "Depth-first search", "A stack holds every discovered vertex still to explore.",
          BOILER),
    topic("empty", "Scratch", BOILER, "## Heading only", "See also [[Index]] for more."),
]


def deck(*extra: PropositionCreated) -> Deck:
    return Deck(fold_snapshot(Ledgers(propositions=[*VAULT, *extra], checkpoints=[cp("r1")])).nodes)


def prompts(d: Deck, node: str) -> list[tuple[str, str, str]]:
    return [(c.prompt.kind, c.prompt.prompt, c.prompt.answer) for c in d.cards(node)]


def test_a_definition_is_recalled_by_its_subject_and_reveals_the_whole_statement():
    cards = prompts(deck(), "heap")
    assert cards[0] == ("recall", "Recall what you know about “binary heap”.",
                        "A binary heap is a complete binary tree kept in an array.")
    assert cards[1] == ("recall", "Recall what you know about “Sift down”.",
                        "Sift down: moves the root key down until both children are larger.")


def test_a_statement_becomes_a_cloze_of_a_key_term_never_of_the_topics_own_title():
    d = deck()
    cloze = [c for c in d.cards("hash") if c.prompt.kind == "cloze"]
    assert [(c.prompt.prompt, c.prompt.answer) for c in cloze] == [
        (f"Fill in the blank: A hash table maps keys to {BLANK} through a hash function.",
         "buckets"),
        (f"Fill in the blank: Chaining keeps a small list of entries in every {BLANK}.",
         "bucket")]
    insertion = next(c for c in d.cards("heap") if "Insertion" in c.prompt.answer
                     or "Insertion" in c.prompt.prompt)
    assert "heap" not in insertion.prompt.answer.lower()  # the title's word: never the blank
    assert not any(answers_own_subject(c) for c in d.all())


def test_wikilinks_embeds_headings_and_markdown_never_reach_a_card():
    d = deck()
    texts = [t for c in d.all() for t in (c.prompt.prompt, c.prompt.answer,
                                          c.prompt.evidence or "")]
    assert not any(mark in t for t in texts for mark in ("[[", "]]", "**", "![", "# "))
    assert any("into a heap costs" in t for t in texts)  # the link shown as its label


def test_a_prompt_two_topics_would_ask_is_dropped_from_both_and_boilerplate_makes_no_card():
    d = deck()
    # "A _____ holds every discovered vertex still to explore." would have two answers.
    assert d.cards("bfs") == () and d.cards("dfs") == ()
    assert d.cards("empty") == ()  # a status line, a heading and a link: nothing to learn
    assert d.dropped >= 2
    fronts = [c.prompt.prompt for c in d.all()]
    assert len(fronts) == len(set(fronts))


def test_a_statement_pointing_back_at_its_paragraph_is_not_a_cloze():
    assert not any("smallest" in c.prompt.answer or "It keeps" in c.prompt.prompt
                   for c in deck().cards("heap"))


def test_a_sessions_proposition_is_not_a_topic_and_gets_no_deck_card():
    d = deck(prop("p", text="A tree is a connected graph with no cycles."))
    assert not d.is_topic("p") and d.cards("p") == ()


def test_review_asks_a_topic_the_same_card_on_every_visit_and_leaves_out_one_without():
    from studyhall.core.contracts.learner import ReviewGraded
    from studyhall.core.library.learner.evidence import LearnerEvidence
    from studyhall.core.library.learner.model import LearnerModel
    from studyhall.core.library.learner.queue import Limits

    snapshot = fold_snapshot(Ledgers(propositions=VAULT, checkpoints=[cp("r1")]))
    grades = [ReviewGraded(id=f"rev_{n}", node_id=n, grade="good", at=at(10))
              for n in ("hash", "empty")]
    model = LearnerModel(snapshot, LearnerEvidence(grades), at(60 * 24 * 30), Limits())
    assert {r.node_id for r in model.reviewables} == {"hash"}  # "empty" goes to Quiz me
    assert model.uncarded == ["empty"]  # with a model, it may get a checked question
    assert len(model.deck.cards("hash")) > 1
    # A grade is on one question: the card is the note's first, review after review (it was
    # card n mod count, so the schedule of one card mixed the answers to several).
    first = model.deck.cards("hash")[0].prompt
    assert model.prompt("hash") == first
    again = LearnerModel(snapshot, LearnerEvidence(grades[:1] + [
        ReviewGraded(id="rev_hash_2", node_id="hash", grade="good", at=at(20))]),
        at(60 * 24 * 30), Limits())
    assert again.card("hash").reviews == 2 and again.prompt("hash") == first
    # "Review now" on the card-less topic recalls its note by name, never its title as answer.
    recall = model.prompt("empty")
    assert recall.kind == "recall" and "Scratch" not in recall.answer


def page_topic(node: str, title: str, *pages: str) -> PropositionCreated:
    """A PDF's topic: its evidence is the text of each page (message id ``<source>#Page n``)."""
    source = f"pdf_{node}"
    return PropositionCreated(
        id=f"prp_{node}", node_id=node, text=title, source_id=source, run_id="r1", at=at(0),
        evidence=tuple(Evidence(source_id=source, message_id=f"{source}#Page {n}", quote=q)
                       for n, q in enumerate(pages, 1)))


def test_a_pdf_page_is_asked_by_its_content_never_by_its_page_number():
    d = deck(page_topic(
        "ch5", "Chapter 5", "Chapter 5. Cellular respiration overview and the role of oxygen.",
        "Page two: the electron transport chain pumps protons across the inner membrane.",
        "Page three: ATP synthase uses the proton gradient to make ATP."))
    cards = prompts(d, "ch5")
    assert not any("Page" in answer or "“Page" in prompt for _, prompt, answer in cards)
    page_two = (f"Fill in the blank: Page two: the electron transport chain pumps {BLANK} "
                "across the inner membrane.")
    assert (page_two, "protons") in [(p, a) for _, p, a in cards]


def test_a_place_in_the_material_is_never_the_blank():
    lecture = topic("lec", "Lecture 04",
                    *(f"Now on {t}, point {n} of the lecture covers {t} in the mitochondria."
                      for n, t in ((1, "cells"), (41, "membranes"), (81, "enzymes"))))
    cards = prompts(deck(lecture), "lec")
    assert cards and not any(answer.casefold() == "point" for _, _, answer in cards)
