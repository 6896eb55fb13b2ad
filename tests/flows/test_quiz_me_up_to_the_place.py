"""Quiz me stops where the learner is: on page 1 of a PDF the questions are on page 1 only, in a
lecture on what was said before the second on screen; with too little text up to there (at 0:00)
the learner is told so, and a quiz on the whole source is one request away (no place)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.support.shelf_client import imported, ready


def test_on_page_one_the_questions_are_on_page_one(tmp_path: Path):
    course, client = ready(tmp_path)
    with client:
        pdf = imported(client, course)["Chapter 5.pdf"]["id"]
        quiz = client.post(f"/api/sources/{pdf}/quiz", json={"page": 1}).json()
        assert quiz["up_to"] == "page 1" and quiz["passages"] == 1 and quiz["whole"] is False
        assert quiz["questions"] and all(q["passage"]["page"] == 1 for q in quiz["questions"])
        later = client.post(f"/api/sources/{pdf}/quiz", json={"page": 3}).json()
        assert later["passages"] == 3 and len(later["questions"]) == 3


def test_in_a_lecture_only_what_was_said_before_the_second_is_asked_about(tmp_path: Path):
    course, client = ready(tmp_path)
    with client:
        lecture = imported(client, course)["lectures/Lecture 04 - Respiration.vtt"]["id"]
        # One cue every 6 s says "point N": before 1:00 the lecture reached point 10.
        quiz = client.post(f"/api/sources/{lecture}/quiz", json={"t": 60}).json()
        assert quiz["up_to"] == "1:00" and quiz["questions"]
        points = [int(n) for q in quiz["questions"] for n in re.findall(r"point (\d+)", q["prompt"])]
        assert points and max(points) <= 10, points
        assert all(q["passage"]["start"] < 60 for q in quiz["questions"])


def test_at_the_start_it_says_so_and_the_whole_lecture_can_be_quizzed(tmp_path: Path):
    course, client = ready(tmp_path)
    with client:
        lecture = imported(client, course)["lectures/Lecture 04 - Respiration.vtt"]["id"]
        early = client.post(f"/api/sources/{lecture}/quiz", json={"t": 0})
        assert early.status_code == 400
        assert early.json()["error"] == "NotEnoughReadYet"  # the window offers the whole lecture
        assert "up to 0:00" in early.json()["message"] and "whole lecture" in early.json()["message"]
        whole = client.post(f"/api/sources/{lecture}/quiz", json={}).json()
        assert whole["whole"] is True and whole["up_to"] == "" and len(whole["questions"]) == 3
