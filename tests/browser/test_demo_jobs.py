"""Demo and diagram jobs end to end with the real Chromium sandbox and scripted builders: a
demo that throws goes back to its builder and is delivered once fixed; one that never gets
fixed is reported as an error, not delivered as fine; a diagram is drawn and checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.jobs import artifact, job_call, session_script, settle, steers, write
from tests.support.session_api import scripted_app

pytestmark = pytest.mark.browser

THROWS = ("```html\n<!DOCTYPE html><html><head><title>Heap</title></head><body><p>heap</p>"
          "<script>const heap = undefined; heap.push(3);</script></body></html>\n```")
CLEAN = ("```html\n<!DOCTYPE html><html><head><title>Heap sandbox</title>"
         "<meta name=\"description\" content=\"Push numbers and watch them sift up.\"></head>"
         "<body><p id=out>[]</p><button id=b>push</button><script>const heap = [];"
         "document.getElementById('b').onclick = () => { heap.push(heap.length);"
         "document.getElementById('out').textContent = JSON.stringify(heap); };</script>"
         "</body></html>\n```")
SVG = ('```svg\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 200" width="300" '
       'height="200"><title>A heap</title><desc>A max-heap drawn as a tree.</desc>'
       '<circle cx="150" cy="40" r="25" fill="#2a7"/><circle cx="80" cy="140" r="25" '
       'fill="#2a7"/><line x1="150" y1="65" x2="80" y2="115" stroke="#333"/></svg>\n```')
BLANK = ('<svg xmlns="http://www.w3.org/2000/svg" width="300" height="200">'
         '<rect width="300" height="200" fill="white"/></svg>')
DEMO = {"concept": "binary heaps", "brief": "Push numbers; watch the array."}


async def test_a_demo_with_a_console_error_is_fixed_then_delivered(tmp_path: Path) -> None:
    script = write(tmp_path / "s.json", session_script(
        [job_call("demo", DEMO, "c1")], demo_builder=[{"text": THROWS}, {"text": CLEAN}]))
    async with scripted_app(script) as (api, runtime):
        chat_id = await api.new_chat("heaps")
        await api.say(chat_id, "Show me")
        await settle(runtime)
        (job,) = runtime.services.job_store.list(chat_id)
        assert (job.status, job.attempts) == ("done", 2)
        assert job.result["title"] == "Heap sandbox"
        assert "heap.push" not in job.result["html"] or "const heap = []" in job.result["html"]
        (fixed,) = job.result["fixed"]
        assert any("Cannot read properties of undefined" in p for p in fixed)
        (steer,) = steers(await api.chat(chat_id))
        assert artifact(steer)["result"]["html"] == job.result["html"]
        assert "Push numbers and watch them sift up." in steer["parts"][1]["text"]
        frame = await api.http.get(f"/api/frames/demo/{job.id}")
        if frame.status_code != 404:  # the Stage's frame route serves the delivered page
            assert "Heap sandbox" in frame.text


async def test_a_demo_that_fails_every_attempt_is_reported_as_an_error(tmp_path: Path) -> None:
    script = write(tmp_path / "s.json", session_script(
        [job_call("demo", DEMO, "c1")], demo_builder=[{"text": THROWS}] * 3))
    async with scripted_app(script) as (api, runtime):
        chat_id = await api.new_chat("heaps")
        await api.say(chat_id, "Show me")
        await settle(runtime)
        (job,) = runtime.services.job_store.list(chat_id)
        assert (job.status, job.attempts, job.result) == ("error", 3, None)
        assert "failed its checks 3 times" in job.error
        (steer,) = steers(await api.chat(chat_id))
        assert artifact(steer)["status"] == "error" and "failed" in steer["parts"][1]["text"]


async def test_a_visual_is_drawn_checked_and_delivered(tmp_path: Path) -> None:
    script = write(tmp_path / "s.json", session_script(
        [job_call("visual", {"subject": "a max-heap"}, "c1")],
        visual_maker=[{"text": BLANK}, {"text": SVG}]))
    async with scripted_app(script) as (api, runtime):
        chat_id = await api.new_chat("heaps")
        await api.say(chat_id, "Draw it")
        await settle(runtime)
        (job,) = runtime.services.job_store.list(chat_id)
        assert (job.status, job.attempts) == ("done", 2)
        assert job.result["title"] == "A heap" and job.result["svg"].startswith("<svg")
        assert job.result["render"]["colours"] > 2
        assert any("blank" in p for p in job.result["fixed"][0])
        assert len(steers(await api.chat(chat_id))) == 1
