"""Home at 1024×700: the dock says what a session finding builds on (the note topic it was
anchored under) and what leads on from a topic (the findings learned in sessions), each a link
that flies to its node; and "/" pressed while Home is still mounting keeps the query typed after
it and lands it in the search box. Screenshots light and dark."""

from __future__ import annotations

from datetime import UTC, datetime
from urllib.parse import urlsplit

import pytest
from studyhall.core.contracts.chat import ChatRecord
from studyhall.core.contracts.graph import EdgeAdded, Evidence, PropositionCreated, RunCheckpoint

from tests.support.live_server import start_server
from tests.support.themes import both_themes

pytestmark = pytest.mark.browser

AT = datetime(2026, 1, 1, tzinfo=UTC)
NOTE, CHAT = "note:trees.md", "chat_trees"
NODES = {  # id: (text, source)
    "n_topic": ("Graph trees", NOTE),
    "n_heading": ("Graph trees: edges and vertices", NOTE),
    "n_bread": ("Baking bread", NOTE),
    "n_count": ("A tree on n vertices has n - 1 edges.", CHAT),
    "n_cycles": ("Trees have no cycles.", CHAT),
    "n_whales": ("Whales sing underwater.", CHAT),
}
SUPPORTS = [("n_heading", "n_topic"), ("n_count", "n_heading"), ("n_cycles", "n_topic"),
            ("n_whales", "n_count")]  # what anchoring made (tests/flows/test_session_findings_anchor)


def seed(services) -> None:
    services.chat_store.create(ChatRecord(id=CHAT, topic="Trees", title="Trees and their edges",
                                          created_at=AT, updated_at=AT))
    graph = services.graph_store
    graph.append_propositions([
        PropositionCreated(id=f"prp_{nid}", node_id=nid, text=text, source_id=source,
                           evidence=(Evidence(source_id=source, message_id=f"{source}#1",
                                              quote=text),), run_id="run_seed", at=AT)
        for nid, (text, source) in NODES.items()])
    graph.append_edges([EdgeAdded.model_validate({
        "id": f"edg_{a}_{b}", "from": a, "to": b, "relation": "supports",
        "source_id": NODES[a][1], "run_id": "run_seed", "at": AT}) for a, b in SUPPORTS])
    graph.append_checkpoint(RunCheckpoint(id="run_seed", source_id=NOTE, started_at=AT,
                                          finished_at=AT))


def select(page, node_id: str) -> None:
    page.evaluate(f"""() => {{ const g = window.__studyhall.graph;
        g.select(g.model.index.get({node_id!r}), {{ fly: true }}); }}""")
    shows(page, NODES[node_id][0])


def shows(page, text: str) -> None:
    """The dock shows the node with ``text``, its links read."""
    page.wait_for_function("""(text) => document.querySelector('.node-panel .node-text')
        ?.textContent === text && document.querySelector('.node-panel .node-links section')""", arg=text)


def test_the_dock_says_what_a_finding_builds_on_and_what_leads_on(window, tmp_path):
    server = start_server(tmp_path / "data", None)
    seed(server.services)
    try:
        page = window.page
        page.set_viewport_size({"width": 1024, "height": 700})
        page.goto(server.launch_url)
        page.wait_for_function("() => window.__studyhall && window.__studyhall.graph"
                               " && window.__studyhall.graph.model", timeout=60_000)

        # A session finding: it builds on the note heading it was anchored under.
        select(page, "n_count")
        panel = page.locator(".node-panel")
        builds = panel.locator("section.node-linked", has_text="Builds on")
        assert builds.locator("li").all_inner_texts() == ["Graph trees: edges and vertices"]
        page.wait_for_function("() => window.__studyhall.graph.camera.anim === null")
        both_themes(window, "dock-finding-builds-on", ".node-links section")

        # Its link flies to the heading; the heading builds on its note's topic.
        builds.get_by_role("button", name="Graph trees: edges and vertices").click()
        shows(page, "Graph trees: edges and vertices")
        assert "Graph trees" in panel.locator("section.node-linked", has_text="Builds on").inner_text()

        # The topic: what was learned in sessions under it (with the session), then the rest.
        select(page, "n_topic")
        learned = panel.locator("section.node-linked", has_text="Learned in your sessions")
        assert learned.locator(".link-button").all_inner_texts() == ["Trees have no cycles."]
        assert "in Trees and their edges" in learned.inner_text()
        onward = panel.locator("section.node-linked", has_text="Leads to")
        assert onward.locator(".link-button").all_inner_texts() == ["Graph trees: edges and vertices"]
        page.wait_for_function("() => window.__studyhall.graph.camera.anim === null")
        both_themes(window, "dock-topic-leads-to", ".node-links section")
        box = panel.bounding_box()
        assert box and box["x"] + box["width"] <= 1024
    finally:
        server.stop()


def _hold_graph_reads(page) -> list:
    """Home's reads of the graph are held (Home stays mounting) until released."""
    held: list = []
    page.route(lambda url: urlsplit(url).path in ("/api/graph", "/api/graph/map"),
               lambda route: held.append(route))
    return held


def _wait_held(page, held: list) -> None:
    for _ in range(200):
        if held:
            return
        page.wait_for_timeout(25)
    raise AssertionError("Home never asked for the graph")


def test_slash_while_home_mounts_keeps_the_typed_query(window, tmp_path):
    server = start_server(tmp_path / "data", None)
    seed(server.services)
    try:
        page = window.page
        page.set_viewport_size({"width": 1024, "height": 700})
        page.goto(server.launch_url)
        page.wait_for_selector("body[data-ready='1']")
        page.evaluate("location.hash = '#/sources'")
        page.wait_for_selector("body[data-sources='empty']")
        held = _hold_graph_reads(page)

        # Navigate to Home, and while it is still reading the graph press "/" and type.
        page.evaluate("location.hash = '#/'")
        _wait_held(page, held)
        page.keyboard.press("/")
        page.keyboard.type("whales")
        assert page.evaluate("location.hash") == "#/"  # no detour through "#/?search=1"
        while held:
            held.pop().continue_()
        page.wait_for_function("() => document.querySelector('.search-input')?.value === 'whales'")
        assert page.evaluate("document.activeElement.classList.contains('search-input')")
        page.wait_for_selector(".search-result", timeout=60_000)  # the first search loads the encoder
        assert "Whales sing underwater." in page.locator(".search-results").inner_text()

        # From a view with no search box: "/" goes to Home and the query typed meanwhile lands.
        page.evaluate("location.hash = '#/sources'")
        page.wait_for_selector("body[data-sources='empty']")
        page.keyboard.press("/")
        page.keyboard.type("bread")
        _wait_held(page, held)
        while held:
            held.pop().continue_()
        page.wait_for_function("() => document.querySelector('.search-input')?.value === 'bread'")
        assert page.evaluate("document.activeElement.classList.contains('search-input')")
        assert page.evaluate("location.hash") == "#/"
        assert not window.page_errors
    finally:
        server.stop()


def test_a_links_place_in_a_quote_reads_as_words_never_as_its_anchor(window, tmp_path):
    """A real vault's "See also [[Guide 155#^block155]]" showed "Guide 155#^block155"."""
    server = start_server(tmp_path / "data", None)
    quote = ("See also [[Search alias guide 155]] and [[Search alias guide 155#^block155]], "
             "and [[Krebs cycle#Where it happens]] for the rest.")
    source = "note_guide"
    graph = server.services.graph_store
    graph.append_propositions([PropositionCreated(
        id="prp_guide", node_id="n_guide", text="Search alias guide 12", source_id=source,
        evidence=(Evidence(source_id=source, message_id=f"{source}#Search alias guide 12",
                           quote=quote),), run_id="run_seed", at=AT)])
    graph.append_checkpoint(RunCheckpoint(id="run_seed", source_id=source, started_at=AT,
                                          finished_at=AT))
    try:
        page = window.page
        page.goto(server.launch_url)
        page.wait_for_function("() => window.__studyhall && window.__studyhall.graph"
                               " && window.__studyhall.graph.model", timeout=60_000)
        page.evaluate("""() => { const g = window.__studyhall.graph;
            g.select(g.model.index.get('n_guide'), { fly: true }); }""")
        shown = page.locator(".node-panel .evidence-quote").first
        shown.wait_for()
        assert shown.inner_text().strip() == (
            "See also Search alias guide 155 and Search alias guide 155, and "
            "Krebs cycle › Where it happens for the rest.")
    finally:
        server.stop()


def test_a_topics_evidence_names_the_kind_of_source_it_came_from(window, tmp_path):
    # "PDF Chapter 5.pdf", "Lecture lectures/…vtt" — a PDF's evidence was "Note Chapter 5.pdf".
    from tests.support.ask_window import fast_search
    from tests.support.browser_shelf import imported_shelf

    server = start_server(tmp_path / "data", None, prepare=fast_search)
    try:
        shelf = imported_shelf(server, tmp_path / "Course")
        page = window.page
        page.set_viewport_size({"width": 1024, "height": 700})
        page.goto(server.home_url)
        page.wait_for_function("() => window.__studyhall && window.__studyhall.graph"
                               " && window.__studyhall.graph.model", timeout=60_000)
        for path, word in (("Chapter 5.pdf", "PDF"), ("lectures/Lecture 04 - Respiration.vtt", "Lecture"),
                           ("notes/Glycolysis.md", "Note")):
            source = shelf[path]["id"]
            page.evaluate("""(source) => { const g = window.__studyhall.graph, m = g.model;
                const i = m.nodes.findIndex((n) => (n.sources || []).includes(source) && m.topicOf[m.index.get(n.id)] === -1);
                g.select(i, { fly: false }); }""", source)
            link = page.locator(f".node-panel a.source-link[href='#/sources/{source}']").first
            link.wait_for()
            assert link.inner_text().startswith(f"{word} "), link.inner_text()
    finally:
        server.stop()
