"""A learner with a past, for the review and stats screens: a scripted binary-heaps session (the
prober's quiz answered two right, one wrong; the extractor and auditor answer from the script),
extracted into the graph, then three weeks of daily reviews graded over HTTP by a simulated
learner who keeps forgetting the array layout. Everything goes through the API; only the clock
is moved (a ``FixedClock`` the live server was built with).
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from typing import Any

import httpx
from studyhall.adapters.fakes import FixedClock

from tests.support.live_server import LiveServer

LEARNER = ("I know a binary heap is a complete binary tree stored in an array. In a min-heap "
           "every parent is smaller than its children, so the minimum sits at the root. "
           "Inserting an element takes O(log n) time because it sifts up one level at a time. "
           "The children of index i live at 2i+1 and 2i+2. Building a heap from n items takes "
           "linear time with Floyd's method. Heapsort repeatedly removes the root to sort in "
           "O(n log n).")
QUIZ = {"questions": [
    {"prompt": "Where is the smallest element of a min-heap?",
     "choices": ["At the root", "In a leaf", "In the middle"], "correct": [0]},
    {"prompt": "How long does inserting into a heap of n items take?",
     "choices": ["O(1)", "O(log n)", "O(n)"], "correct": [1]},
    {"prompt": "In the array layout, where are the children of index i?",
     "choices": ["2i and 2i+1", "2i+1 and 2i+2", "i+1 and i+2"], "correct": [1]},
]}
ANSWERS = ["At the root", "O(log n)", "2i and 2i+1"]  # the last one is wrong


def _p(key: str, text: str, quote: str, understanding: str, quizzes: tuple[str, ...] = ()):
    return {"key": key, "text": text, "understanding": understanding, "quizzes": list(quizzes),
            "evidence": [{"message_id": "m_learner", "quote": quote}]}


EXTRACTION = {
    "propositions": [
        _p("p1", "A binary heap is a complete binary tree stored in an array.",
           "a binary heap is a complete binary tree stored in an array", "solid"),
        _p("p2", "In a min-heap every parent is at most its children, so the minimum is at the "
                 "root.", "In a min-heap every parent is smaller than its children", "solid",
           ("probe_q/q1",)),
        _p("p3", "Inserting into a binary heap takes O(log n) time: the new element sifts up.",
           "Inserting an element takes O(log n) time", "partial", ("probe_q/q2",)),
        _p("p4", "In the array layout the children of index i are at 2i+1 and 2i+2.",
           "The children of index i live at 2i+1 and 2i+2", "confused", ("probe_q/q3",)),
        _p("p5", "Floyd's method builds a heap from n items in linear time.",
           "Building a heap from n items takes linear time with Floyd's method", "partial"),
        _p("p6", "Heapsort sorts in O(n log n) time by repeatedly removing the root.",
           "Heapsort repeatedly removes the root to sort in O(n log n)", "partial"),
    ],
    "edges": [{"from": "p1", "to": "p2", "kind": "follows"},
              {"from": "p2", "to": "p3", "kind": "follows"},
              {"from": "p1", "to": "p4", "kind": "follows"},
              {"from": "p3", "to": "p5", "kind": "follows"},
              {"from": "p2", "to": "p6", "kind": "follows"}],
}
SCRIPT: dict[str, Any] = {
    "prober": [
        {"text": "A quick check first:", "tool_calls": [
            {"name": "quiz", "arguments": QUIZ, "id": "probe_q"}]},
        {"text": "Thanks, that tells me where to start."},
    ],
    "labeler": [{"text": "Binary heaps"}, {"text": "Binary heaps"}],
    "extractor": [{"json": EXTRACTION}],
    "auditor": [{"json": {"verdicts": [{"key": p["key"], "keep": True, "reason": "quoted"}
                                       for p in EXTRACTION["propositions"]]}}],
}
NEW_TODAY = ("Floyd's method", "Heapsort")  # left unreviewed: new cards on the day of the test


def client(server: LiveServer) -> httpx.Client:
    return httpx.Client(base_url=server.url, timeout=60,
                        headers={"Authorization": f"Bearer {server.token}"})


def _stream(http: httpx.Client, path: str, body: dict[str, Any]) -> None:
    with http.stream("POST", path, json=body) as r:
        assert r.status_code == 200, r.read()
        r.read()


def hold_lesson(server: LiveServer) -> str:
    """The session, its quiz answered, then "Add to graph"; the chat id."""
    with client(server) as http:
        chat = http.post("/api/chats", json={"topic": "binary heaps"}).json()["id"]
        _stream(http, f"/api/chats/{chat}/messages", {"text": LEARNER, "id": "m_learner"})
        pending = http.get(f"/api/chats/{chat}").json()["pending"][0]
        shown = pending["presented"]["questions"]
        choices = [[q["choices"].index(a)] for q, a in zip(shown, ANSWERS, strict=True)]
        _stream(http, f"/api/chats/{chat}/answers",
                {"tool_call_id": "probe_q", "answer": {"choices": choices}})
        run = http.post(f"/api/chats/{chat}/extract").json()["run_id"]
        deadline = time.monotonic() + 60
        while (status := http.get(f"/api/extraction/runs/{run}").json())["status"] == "running":
            assert time.monotonic() < deadline, "the extraction did not finish"
            time.sleep(0.1)
        assert status["status"] == "done", status
    return chat


def _recall(text: str, seen: int, again_today: bool) -> str:
    """The simulated learner: the array layout keeps slipping, the rest mostly sticks; a card
    seen again the same day (a learning step) is recalled."""
    if again_today:
        return "good"
    if "2i+1" in text:
        return "again" if seen % 3 == 0 else "hard"
    if "sifts up" in text and seen % 4 == 3:
        return "again"
    return "easy" if seen % 5 == 4 else "good"


def review_history(server: LiveServer, clock: FixedClock, start: datetime, days: int) -> int:
    """Review every day from ``start`` for ``days`` days (all of each day's queue but the cards
    kept new for the test); the number of grades given."""
    seen: dict[str, int] = {}
    given = 0
    with client(server) as http:
        for day in range(days):
            clock.set(start + timedelta(days=day))
            today: set[str] = set()
            for _ in range(40):  # learning steps come back the same day
                due = http.get("/api/review?limit=50").json()["due"]
                todo = [d for d in due if not d["text"].startswith(NEW_TODAY)]
                if not todo:
                    break
                card = todo[0]
                grade = _recall(card["text"], seen.get(card["node_id"], 0),
                                card["node_id"] in today)
                seen[card["node_id"]] = seen.get(card["node_id"], 0) + 1
                today.add(card["node_id"])
                r = http.post(f"/api/review/{card['node_id']}",
                              json={"grade": grade, "kind": card["kind"]})
                assert r.status_code == 200, r.text
                given += 1
                clock.advance(minutes=11)  # the next learning step is due by now
    return given
