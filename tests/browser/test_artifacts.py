"""The Artifacts view in the real window, with scripted writers: a learner selects a topic on
the map, makes flashcards and a study guide from its cluster in the node dock, follows them
from the toast to the Artifacts view, turns a card over to its evidence, copies one as
Markdown, prints the study guide and deletes the cards; a writer that hangs is stopped from its
"Writing…" row; cards written in a session copy as Markdown and open in Artifacts; a new
learner sees how to make some. Screenshots at 1024×700, light and dark."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from studyhall.core.contracts.chat import ChatRecord, DataPart, Message, SteerPart, TextPart
from studyhall.core.contracts.jobs import Job
from studyhall.core.workbench.steer import artifact_data

from tests.support.artifact_graph import QUOTES, cards_answer, seed_heap_graph
from tests.support.chat_model import FunctionChatModel
from tests.support.embedder import HashEmbedder
from tests.support.jobs import RoleGate
from tests.support.live_server import SCREENSHOTS, LiveServer, start_server
from tests.support.themes import both_themes

pytestmark = pytest.mark.browser

SIZE = {"width": 1024, "height": 700}
GUIDE_ANSWER = {"json": {"title": "Heaps: a study guide", "key_ideas": [
    {"idea": "A heap is a complete binary tree stored in an array.", "node_id": "n_heap",
     "evidence": QUOTES["n_heap"]},
    {"idea": "Insert and extract both take logarithmic time.", "node_id": "n_ops",
     "evidence": QUOTES["n_ops"]}],
    "faq": [
        {"question": "What does sift-down do?", "node_id": "n_sift",
         "answer": "It swaps a parent with its smaller child until the order holds.",
         "evidence": QUOTES["n_sift"]},
        {"question": "How fast is insert?", "node_id": "n_ops",
         "answer": "Insert takes logarithmic time.", "evidence": QUOTES["n_ops"]}]}}


def heap_server(data_dir: Path, script: dict[str, Any] | None, gate: str | None = None
                ) -> tuple[LiveServer, RoleGate | None]:
    """The heap graph (a cluster of three ideas) with scripted writers; ``gate``: that role's
    model calls wait until the test lets them go (they never do when it stops them)."""
    held: dict[str, RoleGate] = {}

    def prepare(services: Any) -> Any:
        seed_heap_graph(services.graph_store)
        services = replace(services, embedder=HashEmbedder())
        if gate:
            held["gate"] = RoleGate(services.chat_model, gate)
            services = replace(services, chat_model=FunctionChatModel(held["gate"]))
        return services

    server = start_server(data_dir, script, prepare=prepare)
    return server, held.get("gate")


def open_app(page, server: LiveServer, route: str = "") -> None:
    page.set_viewport_size(SIZE)
    page.goto(server.launch_url)
    page.wait_for_selector("body[data-ready='1']")
    if route:
        page.goto(f"{server.url}/#{route}")


def api(server: LiveServer) -> httpx.Client:
    return httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {server.token}"})


def test_make_from_the_node_dock_then_open_copy_print_and_delete(window, tmp_path):
    script = {"flashcards_writer": [cards_answer()], "notes_writer": [GUIDE_ANSWER]}
    server, _ = heap_server(tmp_path / "data", script)
    page = window.page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    try:
        open_app(page, server, "/?node=n_sift")
        dock = page.locator(".node-panel")
        dock.wait_for()
        dock.get_by_role("button", name="Make study material…").click()
        dialog = page.locator("dialog.make-modal")
        dialog.wait_for()
        assert "the topic “Sift-down restores the heap order.”" in dialog.inner_text()
        dialog.get_by_label("the group “Heaps”").check()
        dialog.get_by_label("Notes").uncheck()
        dialog.get_by_label("Study guide").check()
        assert dialog.get_by_label("How many cards").is_visible()  # flashcards stay ticked
        dialog.get_by_label("How many cards").fill("3")
        window.shot("artifacts-make-dialog-light")
        dialog.get_by_role("button", name="Make 2").click()
        toast = page.locator(".toast", has_text="Writing flashcards and a study guide from the group “Heaps”")
        toast.wait_for()
        toast.get_by_role("button", name="See progress").click()

        page.wait_for_selector("body[data-view='artifacts']")
        page.wait_for_function("() => document.querySelectorAll('.artifact-row').length === 2", timeout=30_000)
        page.wait_for_selector(".writing-row", state="detached")
        rows = page.locator(".artifact-row")
        kinds = {rows.nth(i).get_attribute("data-kind") for i in range(2)}
        assert kinds == {"flashcards", "study_guide"}
        cards_row = page.locator(".artifact-row[data-kind='flashcards']")
        facts = cards_row.locator(".artifact-facts").inner_text()
        assert "From the group “Heaps”" in facts and "2 cards" in facts
        assert "1 unbacked card dropped" in facts  # the card its quote does not back
        page.locator(".kind-chip[data-kind='flashcards']").click()
        assert page.locator(".artifact-row").count() == 1
        page.locator(".kind-chip[data-kind='all']").click()
        both_themes(window, "artifacts-list", ready=".artifact-row")

        # The flashcards: a card turns over to its answer and the quote backing it.
        cards_row.locator("a.artifact-title").click()
        page.wait_for_selector("body[data-artifacts='open']")
        assert "Dropped 1 unbacked card" in page.locator(".dropped-note").inner_text()
        card = page.locator(".flip-card").first
        assert card.locator(".flip-back").is_hidden()
        card.click()
        assert card.get_attribute("aria-pressed") == "true"
        back = card.locator(".flip-back").inner_text()
        assert "Swaps a parent with its smaller child" in back and QUOTES["n_sift"] in back
        assert "2 cards tied to a topic" in page.locator(".in-review").inner_text()
        window.shot("artifacts-flashcards-light")

        # Copy as Markdown: exactly the server's Markdown lands on the clipboard.
        with api(server) as http:
            listed = http.get("/api/artifacts").json()["artifacts"]
            cards_id = next(a["id"] for a in listed if a["kind"] == "flashcards")
            guide_id = next(a["id"] for a in listed if a["kind"] == "study_guide")
            markdown = http.get(f"/api/artifacts/{cards_id}").json()["markdown"]
        page.get_by_role("button", name="Copy as Markdown").click()
        page.wait_for_selector("body[data-copied='1']")
        assert page.evaluate("navigator.clipboard.readText()") == markdown
        assert "What does sift-down do?" in markdown

        # The study guide, on screen and printed (no chrome, light colours in both themes).
        page.goto(f"{server.url}/#/artifacts/{guide_id}")
        page.wait_for_selector(".artifact-page[data-kind='study_guide']")
        assert page.locator(".key-idea").count() == 2 and page.locator(".faq").count() == 2
        assert QUOTES["n_sift"] in page.locator(".faq").first.inner_text()
        both_themes(window, "artifacts-study-guide", ready=".faq")
        for theme in ("light", "dark"):
            page.emulate_media(media="print", color_scheme=theme)
            page.wait_for_function(f"() => document.documentElement.dataset.theme === '{theme}'")
            assert page.locator(".sidebar").is_hidden() and page.locator(".dock").is_hidden()
            assert page.locator(".artifact-actions").is_hidden()
            # The theme flip's colour change settles within a frame or two; then it is white.
            page.wait_for_function("() => getComputedStyle(document.body).backgroundColor"
                                   " === 'rgb(255, 255, 255)'", timeout=5000)
            page.screenshot(path=str(SCREENSHOTS / f"artifacts-print-{theme}.png"), full_page=True)
        page.emulate_media(media="screen", color_scheme="light")

        # Delete the flashcards (confirmed): gone from the view and the API.
        page.goto(f"{server.url}/#/artifacts/{cards_id}")
        page.wait_for_selector("body[data-artifacts='open']")
        page.get_by_role("button", name="Delete").click()
        confirm = page.locator("dialog[open]")
        assert "Its cards leave your review queue" in confirm.inner_text()
        confirm.get_by_role("button", name="Delete").click()
        page.wait_for_selector("body[data-artifacts='ready']")
        page.wait_for_function("() => document.querySelectorAll('.artifact-row').length === 1")
        assert page.locator(".artifact-row").get_attribute("data-kind") == "study_guide"
        with api(server) as http:
            assert [a["id"] for a in http.get("/api/artifacts").json()["artifacts"]] == [guide_id]
            assert http.get(f"/api/artifacts/{cards_id}").status_code == 404
    finally:
        server.stop()


def test_a_writer_is_stopped_from_its_writing_row(window, tmp_path):
    server, gate = heap_server(tmp_path / "data", {"flashcards_writer": [cards_answer()]},
                               gate="flashcards_writer")
    assert gate is not None
    page = window.page
    try:
        open_app(page, server, "/artifacts")
        page.wait_for_selector("body[data-artifacts='empty']")
        page.locator(".artifacts-empty").get_by_role("button", name="Make from my whole graph…").click()
        dialog = page.locator("dialog.make-modal")
        assert "your whole graph" in dialog.inner_text()
        dialog.get_by_label("Notes").uncheck()
        dialog.get_by_label("How many cards").fill("3")
        dialog.get_by_role("button", name="Make").click()
        row = page.locator(".writing-row")
        row.wait_for()
        assert "flashcards" in row.inner_text().lower()
        server.call(gate.entered.wait)  # the writer's model call is in flight
        window.shot("artifacts-writing-light")
        row.get_by_role("button", name="Stop").click()
        page.wait_for_selector(".writing-row.writing-ended")
        assert "Flashcards stopped" in page.locator(".writing-ended").inner_text()
        assert gate.cancelled == 1  # a true abort: the model call was cancelled
        with api(server) as http:
            feed = http.get("/api/activity").json()
            assert all(j["status"] != "running" for j in feed["running"] + feed["recent"])
            assert http.get("/api/artifacts").json()["artifacts"] == []
        page.locator(".writing-ended").get_by_role("button", name="Dismiss").click()
        page.wait_for_selector(".writing-row", state="detached")
        assert page.evaluate("document.body.dataset.artifacts") == "empty"
    finally:
        server.stop()


def test_a_new_learner_sees_how_to_make_study_material(window, tmp_path):
    server = start_server(tmp_path / "data", None)
    page = window.page
    try:
        open_app(page, server, "/artifacts")
        page.wait_for_selector("body[data-artifacts='empty']")
        assert page.locator(".artifacts-link").get_attribute("aria-current") == "page"
        empty = page.locator(".artifacts-empty").inner_text()
        assert "Nothing made yet" in empty and "Make study material…" in empty
        both_themes(window, "artifacts-empty", ready=".artifacts-empty")
        page.goto(f"{server.url}/#/artifacts/art_missing_notes")
        page.wait_for_selector("body[data-artifacts='error']")
        assert "not here any more" in page.locator(".inline-error").inner_text()
    finally:
        server.stop()


def session_with_cards(services: Any) -> Any:
    """A session whose flashcards job finished before this start: the desk keeps it at start-up
    and the transcript's card finds it in the list."""
    t0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
    job = Job(id="job_cards", chat_id="chat_cards", kind="flashcards", status="done",
              outcome="done", input={"topic": "graphs"}, attempts=1,
              result={"artifacts": {"flashcards": {"title": "Graph basics", "cards": [
                  {"front": "What joins two vertices?", "back": "An edge."}]}}, "failed": {}},
              created_at=t0, updated_at=t0)
    services.job_store.save(job)
    steer = Message(id="steer_cards", role="user", created_at=t0,
                    parts=(SteerPart(steer_id="steer_cards", kind="job"),
                           TextPart(text="The flashcards are ready."),
                           DataPart(name="artifact", data=artifact_data(job))))
    first = Message(id="m1", role="user", parts=(TextPart(text="Cards on graphs, please"),),
                    created_at=t0)
    services.chat_store.create(ChatRecord(id="chat_cards", topic="graphs", title="Graphs",
                                          created_at=t0, updated_at=t0,
                                          messages=(first, steer)))
    return replace(services, embedder=HashEmbedder())


def test_cards_written_in_a_session_copy_and_open_in_artifacts(window, tmp_path):
    server = start_server(tmp_path / "data", {"labeler": [{"text": "x"}]},
                          prepare=session_with_cards)
    page = window.page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    try:
        open_app(page, server, "/session/chat_cards")
        card = page.locator(".study-artifact[data-kind='flashcards']")
        links = card.locator(".artifact-links")
        links.wait_for()
        assert page.locator(".session-facts").get_by_role("button", name="Make study material…").is_visible()
        links.get_by_role("button", name="Copy as Markdown").click()
        page.wait_for_selector("body[data-copied='1']")
        assert "What joins two vertices?" in page.evaluate("navigator.clipboard.readText()")
        window.shot("artifacts-session-card-light")
        links.get_by_role("link", name="Open in Artifacts").click()
        page.wait_for_selector(".artifact-page[data-kind='flashcards']")
        assert page.locator(".artifact-heading").inner_text() == "Graph basics"
        assert "From the session “Graphs”" in page.locator(".artifact-meta").inner_text()
    finally:
        server.stop()
