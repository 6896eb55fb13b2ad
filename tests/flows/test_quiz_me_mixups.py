"""Quiz me keeps what was picked: a missed answer is recorded with the chosen text and the right
one (``chosen``, ``right`` on the answer), so picking the same wrong blank twice on a note's
question is a misconception pattern on the node it was recorded on."""

from __future__ import annotations

from pathlib import Path

from tests.support.shelf_client import imported, ready


def test_the_same_wrong_blank_twice_is_a_pattern(tmp_path: Path):
    course, client = ready(tmp_path)
    with client:
        note = imported(client, course)["notes/Glycolysis.md"]["id"]
        picked: str | None = None
        recorded: set[str] = set()
        for _ in range(2):
            # Each quiz draws its distractors by its own id (source_quiz_cloze.py): ask again,
            # a bounded number of times, until the wrong blank picked before is offered.
            for _attempt in range(12):
                quiz = client.post(f"/api/sources/{note}/quiz", json={"at": "energy-yield"}).json()
                first = quiz["questions"][0]
                if picked is None or picked in first["choices"]:
                    break
            if picked is None:  # a wrong choice: any but the one the first answer shows right
                probe = client.post(f"/api/sources/{note}/quiz", json={"at": "energy-yield"})
                answer = client.post(f"/api/sources/{note}/quiz/{probe.json()['quiz_id']}"
                                     "/answers", json={"dont_know": True}).json()
                right = answer["results"][0]["expected"][0]
                picked = next(c for c in first["choices"] if c != right)
            choice = first["choices"].index(picked)
            rest = [[0]] * (len(quiz["questions"]) - 1)
            out = client.post(f"/api/sources/{note}/quiz/{quiz['quiz_id']}/answers",
                              json={"choices": [[choice], *rest]}).json()
            assert out["results"][0]["verdict"] == "miss"
            recorded |= {r["node_id"] for r in out["recorded"]}
        patterns = [m for node in sorted(recorded)
                    for m in client.get(f"/api/mastery/{node}").json()["misconceptions"]]
    assert patterns, "the same wrong blank twice on a node is a pattern"
    assert patterns[0]["chosen"] == picked and patterns[0]["times"] >= 2
    assert patterns[0]["line"].startswith(f"You often confuse “{picked}” and “")
