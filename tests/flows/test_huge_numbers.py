"""A number of thousands of digits is a clear refusal, never a 500: Python will not turn more
than 4,300 digits into an int, so every whole number a request sends (query parameters, a media
``Range``, ``Content-Length``, integers inside a JSON body) is checked by its length first
(``server/http/numbers.py``)."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import pytest
from studyhall.core.errors import InvalidInput
from studyhall.server.app import build_services
from studyhall.server.http.numbers import digits_value, whole_number
from studyhall.server.http.sources import byte_range

from tests.support.embedder import HashEmbedder
from tests.support.server import api_client, make_config
from tests.support.shelf import lecture_cues, silent_wav, vtt

HUGE = "9" * 5000  # past Python's 4,300-digit int limit


@pytest.mark.parametrize("url", [
    f"/api/graph/map?limit={HUGE}",
    f"/api/graph/map?start={HUGE}",
    f"/api/graph/map?limit=0000{HUGE}",
    f"/api/activity/stream?limit={HUGE}",
    f"/api/review?limit={HUGE}",
    f"/api/graph/search?q=cells&limit={HUGE}",
])
def test_a_query_number_of_thousands_of_digits_is_a_400(url: str) -> None:
    with api_client() as client:
        r = client.get(url)
    assert r.status_code == 400, r.text
    assert "must be a whole number from" in r.json()["message"]


def test_a_json_number_of_thousands_of_digits_is_a_400_that_says_so() -> None:
    with api_client() as client:
        r = client.put("/api/settings/review", json=None,
                       content=f'{{"new_cards_per_day": {HUGE}}}',
                       headers={"content-type": "application/json"})
        assert r.status_code == 400, r.text
        assert "more than 4,300 digits" in r.json()["message"]
        # Within what Python reads, a number is judged by the field's own bounds, as before.
        over = client.put("/api/settings/review", json={"new_cards_per_day": 2**63})
        assert over.status_code == 400 and "new_cards_per_day" in over.json()["message"]
        assert client.get("/api/settings").json()["review"]["new_cards_per_day"] != int("9" * 18)


def test_a_range_of_thousands_of_digits_is_the_file_or_a_416(tmp_path: Path) -> None:
    course = tmp_path / "Course"
    course.mkdir()
    (course / "Talk.vtt").write_text(vtt(lecture_cues()[:5]), encoding="utf-8")
    (course / "Talk.m4a").write_bytes(silent_wav())
    data = (course / "Talk.m4a").read_bytes()
    services = replace(build_services(make_config()), embedder=HashEmbedder())
    with api_client(services) as client:
        run_id = client.post("/api/graph/import", json={"path": str(course)}).json()["run_id"]
        deadline = time.monotonic() + 60
        while client.get(f"/api/graph/import/{run_id}").json()["status"] == "running":
            assert time.monotonic() < deadline, "the import did not finish"
            time.sleep(0.05)
        talk = next(s for s in client.get("/api/sources").json() if s["path"] == "Talk.vtt")
        url = f"/api/sources/{talk['id']}/media"
        # A last byte past the end means the end (RFC 9110): the whole file, from 0.
        whole = client.get(url, headers={"range": f"bytes=0-{HUGE}"})
        assert whole.status_code == 206 and whole.content == data
        assert whole.headers["content-range"] == f"bytes 0-{len(data) - 1}/{len(data)}"
        suffix = client.get(url, headers={"range": f"bytes=-{HUGE}"})
        assert suffix.status_code == 206 and suffix.content == data
        past = client.get(url, headers={"range": f"bytes={HUGE}-"})
        assert past.status_code == 416 and past.headers["content-range"] == f"bytes */{len(data)}"


def test_byte_positions_are_read_by_length_first() -> None:
    assert byte_range(f"bytes=0-{HUGE}", 10) == (0, 9)
    assert byte_range(f"bytes={HUGE}-{HUGE}", 10) is False
    assert byte_range(f"bytes=0-{'0' * 5000}", 10) == (0, 0)  # zeros are not a huge number
    assert byte_range("bytes=٣-", 10) is None  # not ASCII digits: not a range we read
    assert byte_range("bytes=3-4", 10) == (3, 4)


def test_whole_numbers_are_bounded_before_they_are_made() -> None:
    assert digits_value(HUGE, 10**18) is None and digits_value("0" * 5000 + "7", 9) == 7
    assert whole_number(None, "limit", least=1, most=5, default=3) == 3
    assert whole_number("5", "limit", least=1, most=5) == 5
    for raw in ("6", "0", "-1", "+2", " 2", "²", "٣", HUGE, ""):
        with pytest.raises(InvalidInput, match='"limit" must be a whole number from 1 to 5'):
            whole_number(raw, "limit", least=1, most=5)
    with pytest.raises(InvalidInput, match="at most 18 digits"):
        whole_number("1" * 19, "start", least=0)
