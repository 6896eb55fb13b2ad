"""Quiz me against a real app: with no model the quiz is built from the passages read so far;
the server grades the answers and records each on the graph nodes its passage supports, so
``GET /api/mastery/{node}`` changes; a quiz is answered once; a scripted model writes the
questions itself when one is set up."""

from __future__ import annotations

import time
from pathlib import Path

from studyhall.core.classroom.shuffle import choice_order

from tests.support.shelf_client import imported, ready


def shown_right(quiz_id: str, index: int) -> int:
    """Where the right choice (index 0 as built) is displayed."""
    return choice_order(quiz_id, index, 4).index(0)


def test_quiz_from_the_passages_is_graded_and_feeds_mastery(tmp_path: Path):
    course, client = ready(tmp_path)
    with client:
        note = imported(client, course)["notes/Glycolysis.md"]["id"]
        quiz = client.post(f"/api/sources/{note}/quiz", json={"at": "energy-yield"}).json()
        assert quiz["written_by"] == "passages"
        assert len(quiz["questions"]) == 3
        for q in quiz["questions"]:
            assert q["prompt"].startswith("Fill in the blank") and "_____" in q["prompt"]
            assert len(q["choices"]) == 4 and len(set(q["choices"])) == 4
            # The note's Markdown is read as text: "nets two ATP", never "nets **two ATP**".
            for shown in (q["prompt"], *q["choices"]):
                assert not any(m in shown for m in ("**", "[[", "![", "`")), shown
            # Asked up to "Energy yield": never about the section after it.
            assert q["passage"]["anchor"] != "regulation"
        qid = quiz["quiz_id"]
        right = [shown_right(qid, i) for i in range(3)]
        wrong = (right[1] + 1) % 4
        result = client.post(f"/api/sources/{note}/quiz/{qid}/answers",
                             json={"choices": [[right[0]], [wrong], [right[2]]]})
        assert result.status_code == 200, result.text
        out = result.json()
        assert [r["verdict"] for r in out["results"]] == ["correct", "miss", "correct"]
        assert out["correct"] == 2 and out["total"] == 3
        assert out["results"][1]["expected"]  # the right answer, shown after a miss
        assert out["recorded"], "the passages support nodes: the answers are recorded on them"
        node = out["recorded"][0]["node_id"]
        mastery = client.get(f"/api/mastery/{node}").json()
        assert any(f"quiz {qid}/q" in e["detail"].lower() for e in mastery["explanation"])
        assert mastery["mastery"] is not None

        # Answered once: a replay is refused, not counted twice.
        again = client.post(f"/api/sources/{note}/quiz/{qid}/answers", json={"dont_know": True})
        assert again.status_code == 404 and "Quiz me" in again.text
        after = client.get(f"/api/mastery/{node}").json()
        assert len(after["explanation"]) == len(mastery["explanation"])


def test_bad_quiz_requests_are_refused_with_a_reason(tmp_path: Path):
    course, client = ready(tmp_path)
    with client:
        note = imported(client, course)["notes/Glycolysis.md"]["id"]
        assert client.post("/api/sources/note_0000000000/quiz", json={}).status_code == 404
        quiz = client.post(f"/api/sources/{note}/quiz", json={}).json()
        short = client.post(f"/api/sources/{note}/quiz/{quiz['quiz_id']}/answers",
                            json={"choices": [[0]]})
        assert short.status_code == 400 and "one entry per question" in short.text
        assert client.post(f"/api/sources/{note}/quiz", json={"page": 0}).status_code == 400


def test_a_model_writes_the_questions_when_one_is_set_up(tmp_path: Path):
    questions = [{"passage": n, "prompt": f"Question {n}?", "choices": ["a", "b", "c", "d"],
                  "correct": [1], "explanation": "Because."} for n in (1, 2, 3)]
    course, client = ready(tmp_path, {"answerer": [{"json": {"questions": questions}}]})
    with client:
        lecture = imported(client, course)["lectures/Lecture 04 - Respiration.vtt"]["id"]
        quiz = client.post(f"/api/sources/{lecture}/quiz", json={"t": 754}).json()
        assert quiz["written_by"] == "model"
        assert [q["prompt"] for q in quiz["questions"]] == ["Question 1?", "Question 2?", "Question 3?"]
        assert all(q["passage"]["start"] <= 754 for q in quiz["questions"])
        qid = quiz["quiz_id"]
        picks = [[choice_order(qid, i, 4).index(1)] for i in range(3)]
        out = client.post(f"/api/sources/{lecture}/quiz/{qid}/answers", json={"choices": picks}).json()
        assert out["correct"] == 3


def test_a_lecture_and_a_pdf_are_topics_and_quiz_me_on_a_lecture_records_on_it(tmp_path: Path):
    """Issue 30 item 4: a lecture becomes a topic whose key moments are its sections (a PDF's
    pages are), so Quiz me on it records evidence on something the map shows; a second import
    of the same folder adds nothing."""
    course, client = ready(tmp_path)
    with client:
        shelf = imported(client, course)
        lecture = shelf["lectures/Lecture 04 - Respiration.vtt"]["id"]
        pdf = shelf["Chapter 5.pdf"]["id"]
        nodes = client.get("/api/graph").json()["nodes"]
        by_source = {s: [n for n in nodes if s in n.get("sources", [])] for s in (lecture, pdf)}
        assert len(by_source[lecture]) == 1 and len(by_source[pdf]) == 1, by_source
        topic = by_source[lecture][0]
        detail = client.get(f"/api/graph/nodes/{topic['id']}").json()
        assert topic["text"] == "Lecture 04 Respiration"
        sections = [s["heading"] for s in detail["sections"] if s["level"] > 0]
        assert len(sections) >= 2 and all(":" in h.split(" · ")[0] for h in sections), sections
        pages = client.get(f"/api/graph/nodes/{by_source[pdf][0]['id']}").json()["sections"]
        assert [s["heading"] for s in pages if s["level"] > 0] == ["Page 1", "Page 2", "Page 3"]

        quiz = client.post(f"/api/sources/{lecture}/quiz", json={"t": 900}).json()
        qid = quiz["quiz_id"]
        out = client.post(f"/api/sources/{lecture}/quiz/{qid}/answers",
                          json={"choices": [[shown_right(qid, i)] for i in range(3)]}).json()
        assert topic["id"] in [r["node_id"] for r in out["recorded"]], out["recorded"]

        count = len(nodes)
        again = client.post("/api/graph/import", json={"path": str(course)}).json()
        deadline = time.monotonic() + 60
        while (run := client.get(f"/api/graph/import/{again['run_id']}").json())["status"] == "running":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert run["report"]["propositions"] == 0 and run["report"]["evidence"] == 0
        assert len(client.get("/api/graph").json()["nodes"]) == count
