"""Verify, never one-shot: problems go back to the sub-agent; the bound turns them into a failure."""

from __future__ import annotations

from typing import Any

import pytest
from studyhall.core.agents.builder import build_verified
from studyhall.core.agents.demo_builder import build_demo, describe_page
from studyhall.core.agents.grounding import GraphFact, Grounding, Passage
from studyhall.core.agents.researcher import research
from studyhall.core.agents.visual_maker import make_visual
from studyhall.core.agents.writers import write_artifact
from studyhall.core.contracts.sandbox import ImageRender, PageCheck
from studyhall.core.errors import JobFailed, SandboxError

from tests.support.chat_model import FunctionChatModel
from tests.support.chat_script import say, scripted

CLEAN = ('<!DOCTYPE html><html><head><title>Heap demo</title>'
         '<meta name="description" content="Push numbers and watch the heap fix itself.">'
         "</head><body><button>push</button></body></html>")
BROKEN = "<!DOCTYPE html><html><body><script>boom()</script></body></html>"
SVG = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><title>Heap</title>'
       "<desc>A heap as a tree.</desc><circle r='4'/></svg>")


class FakeSandbox:
    def __init__(self, pages: list[PageCheck] | None = None,
                 renders: list[ImageRender] | None = None) -> None:
        self.pages = list(pages or [])
        self.renders = list(renders or [])
        self.seen: list[str] = []

    async def check_page(self, html: str) -> PageCheck:
        self.seen.append(html)
        return self.pages.pop(0)

    async def render_svg(self, svg: str) -> ImageRender:
        self.seen.append(svg)
        return self.renders.pop(0)


def contents(model: FunctionChatModel, n: int) -> list[str]:
    return [m["content"] for m in model.requests[n].messages]


async def test_the_first_good_answer_is_taken() -> None:
    model = scripted(say("fine answer"))

    async def verify(value: str) -> list[str]:
        return []

    built = await build_verified(model, "researcher", [{"role": "user", "content": "q"}],
                                 read=str.strip, verify=verify, what="thing", fix="Fix it.")
    assert (built.value, built.attempts, built.history) == ("fine answer", 1, ())


async def test_a_demo_that_throws_is_sent_back_with_its_errors_then_delivered() -> None:
    model = scripted(say(f"```html\n{BROKEN}\n```"), say(f"Fixed:\n```html\n{CLEAN}\n```"))
    sandbox = FakeSandbox([PageCheck(page_errors=("boom is not defined",)), PageCheck()])
    built = await build_demo(model, sandbox, "You build demos.",
                             {"concept": "heaps", "brief": "push numbers"})
    assert built.attempts == 2 and sandbox.seen == [BROKEN, CLEAN]
    assert built.value["html"] == CLEAN and built.value["title"] == "Heap demo"
    assert built.value["description"] == "Push numbers and watch the heap fix itself."
    assert built.value["fixed"] == [["uncaught error: boom is not defined"]]
    second = contents(model, 1)
    assert second[-2].strip().endswith("```") and BROKEN in second[-2]  # its own answer
    assert "uncaught error: boom is not defined" in second[-1] and "whole corrected" in second[-1]
    assert all(r.role == "demo_builder" for r in model.requests)


async def test_a_demo_that_never_passes_fails_after_the_bound_and_is_not_delivered() -> None:
    model = scripted(*[say(f"```html\n{BROKEN}\n```")] * 3)
    checks = [PageCheck(console_errors=("bad",), blocked=("https://cdn.example/x.js",))] * 3
    with pytest.raises(JobFailed) as failed:
        await build_demo(model, FakeSandbox(list(checks)), "p", {"concept": "c", "brief": "b"})
    assert failed.value.attempts == 3 and len(model.requests) == 3
    assert "failed its checks 3 times" in str(failed.value)
    assert "console error: bad" in str(failed.value) and "network off" in str(failed.value)


async def test_an_answer_without_a_document_counts_as_a_failed_round() -> None:
    model = scripted(say("I think a slider would be nice."), say(CLEAN))
    sandbox = FakeSandbox([PageCheck()])
    built = await build_demo(model, sandbox, "p", {"concept": "c", "brief": "b"})
    assert built.attempts == 2 and len(sandbox.seen) == 1
    assert "no HTML document" in contents(model, 1)[-1]


async def test_a_missing_browser_fails_the_job_with_what_to_do() -> None:
    class NoBrowser(FakeSandbox):
        async def check_page(self, html: str) -> PageCheck:
            raise SandboxError("Chromium is not installed")

    with pytest.raises(SandboxError, match="not installed"):
        await build_demo(scripted(say(CLEAN)), NoBrowser(), "p", {"concept": "c", "brief": "b"})


async def test_an_unsafe_svg_is_refused_before_drawing_and_a_blank_one_after() -> None:
    unsafe = SVG.replace("<circle", "<script>x()</script><circle")
    model = scripted(say(f"```svg\n{unsafe}\n```"), say(SVG), say(SVG))
    sandbox = FakeSandbox(renders=[ImageRender(10, 10, 1, 0.0), ImageRender(10, 10, 3, 0.4)])
    built = await make_visual(model, sandbox, "p", {"subject": "a heap"})
    assert built.attempts == 3 and len(sandbox.seen) == 2  # the unsafe one was never drawn
    assert "<script> is not allowed" in contents(model, 1)[-1]
    assert "blank" in contents(model, 2)[-1]
    assert built.value["title"] == "Heap" and built.value["description"] == "A heap as a tree."
    assert built.value["render"] == {"width": 10, "height": 10, "colours": 3}


async def test_flashcards_with_an_unknown_node_go_back_then_pass() -> None:
    bad = ('{"title": "Heaps", "cards": ['
           '{"front": "What is a heap?", "back": "A complete tree.", "node_id": "n_9",'
           ' "evidence": "A heap is a complete tree."},'
           '{"front": "Root?", "back": "The max.", "node_id": null,'
           ' "evidence": "the root holds the max"},'
           '{"front": "Insert cost?", "back": "log n", "evidence": "an insert costs log n"}]}')
    good = bad.replace('"n_9"', '"n_1"')
    model = scripted(say(bad), say(f"```json\n{good}\n```"))
    grounding = Grounding(facts=(GraphFact("n_1", "A heap is a complete tree.", "shaky"),),
                          passages=(Passage(1, "heaps.md", "Heaps", "In a max-heap the root "
                                            "holds the max; an insert costs log n."),))
    built = await write_artifact(model, "You write cards.", "flashcards",
                                 {"topic": "heaps", "count": 3}, grounding)
    assert built.attempts == 2 and built.value["cards"][0]["node_id"] == "n_1"
    assert "node_id 'n_9' is not one of the graph nodes" in contents(model, 1)[-1]
    assert model.requests[0].role == "flashcards_writer"
    assert model.requests[0].response_schema is not None
    assert "n_1: A heap is a complete tree. [shaky]" in contents(model, 0)[0]


async def test_a_writer_answer_that_is_not_json_of_the_shape_is_corrected() -> None:
    model = scripted(say("not json"), say('{"title": "x"}'),
                      say('{"title": "Heaps", "markdown": "# Heaps\\nA heap is a complete binary tree kept in an array."}'))
    built = await write_artifact(model, "p", "notes", {"topic": "heaps"}, Grounding())
    assert built.attempts == 3
    assert "not valid JSON" in contents(model, 1)[-1]
    assert "markdown" in contents(model, 2)[-1]


async def test_research_keeps_real_citations_and_removes_invented_ones() -> None:
    answer = "Heaps live in arrays [1]. Some say otherwise [4]."
    model = scripted(say(answer))
    grounding = Grounding(passages=(Passage(1, "notes/heaps.md#arrays", "Heaps", "arrays..."),
                                    Passage(2, "l2.vtt#t=30", "Lecture 2", "trees...")))
    built = await research(model, "You research.", {"question": "Why arrays?"}, grounding)
    r: dict[str, Any] = built.value
    assert r["answer"] == "Heaps live in arrays [1]. Some say otherwise."
    assert r["removed_markers"] == 1 and [s["n"] for s in r["sources"]] == [1]
    assert r["grounded"] is True
    system = contents(model, 0)[0]
    assert '<source n="1" from="notes/heaps.md#arrays"' in system


def test_describe_page_reads_title_and_description() -> None:
    assert describe_page(CLEAN) == ("Heap demo", "Push numbers and watch the heap fix itself.")
    assert describe_page("<html></html>") == (None, None)


async def test_a_writer_that_never_fits_the_shape_fails_in_words_a_learner_reads() -> None:
    # The model is told the field and the rule; the learner is told what was missing, plainly.
    model = scripted(*[say('{"title": "Heaps", "faq": []}')] * 3)
    with pytest.raises(JobFailed) as failed:
        await write_artifact(model, "p", "study_guide", {"topic": "heaps"}, Grounding())
    shown = str(failed.value)
    assert "failed its checks 3 times" in shown and "key ideas" in shown
    for jargon in ("JSON", "schema", "Field required", "key_ideas"):
        assert jargon not in shown
    assert "key_ideas" in contents(model, 1)[-1]  # the model still hears the exact field
    assert failed.value.problems and "schema" in failed.value.problems[0]


async def test_a_writer_that_never_answers_in_json_fails_without_saying_json() -> None:
    model = scripted(*[say("Here are some thoughts on heaps.")] * 3)
    with pytest.raises(JobFailed) as failed:
        await write_artifact(model, "p", "notes", {"topic": "heaps"}, Grounding())
    assert "JSON" not in str(failed.value) and "not in the form asked for" in str(failed.value)
