"""Key moments of a 50-minute lecture with no model: cut where the topic shifts, named by the
topic's own words, cached by content (an edited transcript is cut again)."""

from __future__ import annotations

import itertools

from studyhall.core.library.sources.key_moments import Cue, key_moments
from studyhall.server.runtime.library.moment_cache import MomentCache

from tests.support.shelf import TOPICS, lecture_cues

TOPIC_SECONDS = 240  # the fixture changes topic every 40 cues of 6 s


def lecture() -> list[Cue]:
    return [Cue(*c) for c in lecture_cues()]


def test_moments_start_where_the_lecture_changes_topic():
    moments = key_moments(lecture())
    starts = [m.start for m in moments]
    assert starts[0] == 0.0
    assert 8 <= len(moments) <= 14
    # Every cut lands on a real topic change (within one 60 s window).
    for s in starts[1:]:
        assert min(abs(s - k * TOPIC_SECONDS) for k in range(1, 13)) <= 60, s
    # ... and most topic changes are found.
    found = sum(any(abs(s - k * TOPIC_SECONDS) <= 60 for s in starts) for k in range(1, 12))
    assert found >= 9, starts
    assert all(a.end <= b.start + 6 for a, b in itertools.pairwise(moments))


def test_each_moment_is_named_by_its_topic():
    for m in key_moments(lecture()):
        topic = TOPICS[int(m.start // TOPIC_SECONDS) % len(TOPICS)]
        assert topic in m.title and m.terms[0] == topic, (m.start, m.title, m.terms)


def test_the_atp_synthase_passage_is_salient_in_its_moment():
    at_12 = next(m for m in key_moments(lecture()) if m.start <= 754 < m.end)
    assert "atp" in at_12.terms


def test_a_short_or_empty_transcript():
    assert key_moments([]) == []
    one = key_moments([Cue(0, 5, "Welcome to the course on compilers."), Cue(5, 9, "Parsing comes first.")])
    assert len(one) == 1 and one[0].start == 0 and "compilers" in one[0].terms


def test_moments_are_computed_once_per_content():
    cache = MomentCache()
    first = cache.moments(lecture())
    assert cache.moments(lecture()) == first and cache.computed == 1
    edited = lecture()
    edited[0] = Cue(0, 6, "Now, on viruses: an edited opening line.")
    cache.moments(edited)
    assert cache.computed == 2
