"""The dock's correctable memory and misconception line in the real window, 1024×700, light and
dark: a learner who twice picked P(B|A) for P(A|B) sees "You often confuse …: 2 times" on the
topic, says "I know this" with a note (the score moves, the explanation says so with its
weight), undoes it (the score is back); Today's misconception step names the same pattern."""

from __future__ import annotations

from datetime import datetime

import pytest

from tests.support.live_server import start_server
from tests.support.mixups import LINE, NODE, seed_mixups
from tests.support.themes import both_themes

pytestmark = pytest.mark.browser

SIZE = {"width": 1024, "height": 700}


def server_with_mixups(data_dir):
    now = datetime.now().astimezone()

    def prepare(services):
        seed_mixups(services, now)
        return services

    return start_server(data_dir, None, prepare=prepare)


def open_home(page, server) -> None:
    page.set_viewport_size(SIZE)
    page.goto(server.home_url)
    page.wait_for_function("() => window.__studyhall && window.__studyhall.graph"
                           " && window.__studyhall.graph.model", timeout=60_000)


def select(page, node_id: str) -> None:
    page.evaluate(f"""() => {{ const g = window.__studyhall.graph;
        g.select(g.model.index.get({node_id!r}), {{ fly: true }}); }}""")
    page.wait_for_selector(".node-mastery:not([aria-busy]) .dock-correct")


def mastery(page) -> str:
    return page.locator(".node-mastery .mastery-value").inner_text()


def test_the_dock_shows_the_pattern_and_i_know_this_counts_and_undoes(window, tmp_path):
    server = server_with_mixups(tmp_path / "data")
    try:
        page = window.page
        open_home(page, server)
        select(page, NODE)
        line = page.locator(".dock-misconceptions .misconception-line")
        assert line.count() == 1
        assert f"{LINE}, last on " in line.inner_text()
        before = mastery(page)
        page.locator(".dock-misconceptions").scroll_into_view_if_needed()
        page.wait_for_function("() => window.__studyhall.graph.camera.anim === null")
        both_themes(window, "dock-misconception", ".dock-misconceptions")

        page.locator(".assert-note").fill("I mix up which bar comes first <b>only</b>")
        page.get_by_role("button", name="I know this").click()
        page.wait_for_selector(".node-mastery:not([aria-busy]) .assertion")
        after = mastery(page)
        assert float(after) > float(before)
        said = page.locator(".assertion").inner_text()
        assert "You said you know this" in said and "weight ×3" in said
        assert "I mix up which bar comes first <b>only</b>" in said  # shown as text, inert
        assert page.locator(".assertion b").count() == 0
        top = page.locator(".mastery-steps li").first.inner_text()
        assert "You said “I know this”" in top and "(weight ×3)" in top
        page.locator(".toast-close").click()  # "Noted … Undo": the shot shows the dock under it
        page.locator(".assertions").scroll_into_view_if_needed()
        both_themes(window, "dock-i-know-this", ".assertion")

        page.get_by_role("button", name="Undo").click()
        page.wait_for_function("() => !document.querySelector('.node-mastery .assertion')"
                               " && document.querySelector('.node-mastery:not([aria-busy])"
                               " .dock-correct')")
        assert mastery(page) == before
        assert "You said" not in page.locator(".mastery-steps").first.inner_text()
    finally:
        server.stop()


def test_todays_misconception_step_names_the_pattern(window, tmp_path):
    server = server_with_mixups(tmp_path / "data")
    try:
        page = window.page
        page.set_viewport_size(SIZE)
        page.goto(server.launch_url)
        page.wait_for_selector("body[data-ready='1']")
        page.wait_for_selector("body[data-today='busy']")  # a mix-up: the window opens Today
        step = page.locator(".today-step[data-kind='misconception']")
        assert step.count() == 1
        assert LINE in step.locator(".today-why").inner_text()
        assert step.locator(".today-kind").text_content() == "Set it straight"
        step.scroll_into_view_if_needed()
        both_themes(window, "today-misconception", ".today-step")
    finally:
        server.stop()
