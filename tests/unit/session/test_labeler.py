"""Session titles from the labeler: a clean one-liner, or nothing."""

from __future__ import annotations

from studyhall.core.agents.labeler import MAX_TITLE, clean_title, title_messages
from studyhall.core.contracts.steers import steer_message

from tests.support.transcript import AT, assistant, text, user


def test_clean_title() -> None:
    assert clean_title('"Graph basics."\n') == "Graph basics"
    assert clean_title("\n\nTitle: **Induction proofs**\nmore") == "Induction proofs"
    assert clean_title("   \n") is None
    long = clean_title("x" * 200)
    assert long is not None and len(long) == MAX_TITLE and long.endswith("…")


def test_title_messages_show_learner_and_tutor_text_but_no_steers() -> None:
    msgs = title_messages(
        "Name it.",
        "graphs",
        [user("u1", "teach me graphs"), steer_message("steer_x", "job", "SECRET", AT),
         assistant("a1", text("Sure!"))],
    )
    assert msgs[0] == {"role": "system", "content": "Name it."}
    assert "Topic: graphs" in msgs[1]["content"]
    assert "Learner: teach me graphs" in msgs[1]["content"]
    assert "Tutor: Sure!" in msgs[1]["content"]
    assert "SECRET" not in msgs[1]["content"]
