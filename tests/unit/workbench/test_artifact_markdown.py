"""Every study artifact copies as Markdown: notes as written, cards as Q/A with their evidence,
a plan as numbered steps, a study guide with its FAQ, a mind map as mermaid plus an outline."""

from __future__ import annotations

import pytest
from studyhall.core.classroom.plan_parser import parse_plan
from studyhall.core.workbench.markdown import artifact_markdown
from studyhall.core.workbench.mind_map import grow, render_mermaid


class Listed:
    def __init__(self, id: str, label: str, parent: str | None = None) -> None:
        self.id, self.label, self.parent, self.node_id = id, label, parent, None


def test_notes_are_copied_as_written_with_a_title_when_they_have_none() -> None:
    assert artifact_markdown("notes", {"title": "Heaps", "markdown": "# Heaps\n\nText."}) == \
        "# Heaps\n\nText.\n"
    assert artifact_markdown("notes", {"title": "Heaps", "markdown": "Just text."}) == \
        "# Heaps\n\nJust text.\n"


def test_flashcards_are_questions_and_answers_with_their_evidence() -> None:
    md = artifact_markdown("flashcards", {"title": "Heap cards", "cards": [
        {"front": "What shape is a heap?", "back": "A complete binary tree.",
         "node_id": "n_1", "evidence": "A heap is a complete\nbinary tree."},
        {"front": "Insert cost?", "back": "O(log n).", "node_id": None, "evidence": None}],
        "dropped": 1, "dropped_reasons": ["x"]})
    assert md == ("# Heap cards\n\n**Q:** What shape is a heap?\n\n**A:** A complete binary "
                  "tree.\n\n> A heap is a complete\n> binary tree.\n\n**Q:** Insert cost?\n\n"
                  "**A:** O(log n).\n")


def test_a_study_plan_is_numbered_steps() -> None:
    md = artifact_markdown("study_plan", {"title": "Heaps in a week", "goal": "understand heaps",
                                          "steps": [{"title": "Arrays as trees", "minutes": 30,
                                                     "detail": "Index arithmetic."},
                                                    {"title": "Sift", "detail": ""}]})
    assert md == ("# Heaps in a week\n\n**Goal:** understand heaps\n\n1. **Arrays as trees** "
                  "(30 min) — Index arithmetic.\n2. **Sift**\n")


def test_a_study_guide_has_key_ideas_and_an_faq() -> None:
    md = artifact_markdown("study_guide", {"title": "Heaps", "key_ideas": [
        {"idea": "A heap is a complete tree.", "evidence": "A heap is a complete tree",
         "node_id": None}],
        "faq": [{"question": "Why an array?", "answer": "No gaps.", "evidence": "no gaps here",
                 "node_id": None},
                {"question": "Cost?", "answer": "log n", "evidence": None, "node_id": None}]})
    assert md == ("# Heaps\n\n## Key ideas\n\n- A heap is a complete tree.\n\n"
                  "  > A heap is a complete tree\n\n## FAQ\n\n### Why an array?\n\nNo gaps.\n\n"
                  "> no gaps here\n\n### Cost?\n\nlog n\n")


def test_a_mind_map_is_a_mermaid_block_and_an_outline() -> None:
    root = grow('Heaps "in" <code>', [Listed("a", "Shape"), Listed("b", "Complete", "a"),
                                       Listed("c", "Order")]).root
    content = {"title": "Heaps", "root": root.to_dict(), "mermaid": render_mermaid(root)}
    md = artifact_markdown("mind_map", content)
    head, rest = md.split("```mermaid\n", 1)
    mermaid, outline = rest.split("```\n", 1)
    assert head == "# Heaps\n\n"
    assert parse_plan(mermaid).errors == []
    assert outline == '\n- **Heaps "in" <code>**\n  - Shape\n    - Complete\n  - Order\n'
    # A stored map without its mermaid (older content) is drawn again from the tree.
    assert artifact_markdown("mind_map", {"title": "Heaps", "root": root.to_dict()}) == md


def test_an_unknown_kind_says_which_kinds_exist() -> None:
    with pytest.raises(ValueError, match="use one of notes, flashcards"):
        artifact_markdown("research", {})
