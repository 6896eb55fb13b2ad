"""Log lines: one per event, correlation-tagged, with every secret masked by construction."""

from __future__ import annotations

import logging

import pytest
from studyhall.server.logging import RedactingFilter, setup_logging, tag, tagged
from studyhall.server.redaction import MASK, Redactor


@pytest.fixture
def redactor():
    return Redactor()


@pytest.mark.parametrize(
    "text",
    [
        "key sk-proj-AbCdEfGh12345678_xyz in the text",
        "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig",
        "GET /?token=abcDEF123456 HTTP/1.1",
        '{"api_key": "AKIA1234567890XYZ"}',
        "groq gsk_abcdefghijklmnop1234",
        "google AIzaSyA1234567890abcdefghijklmnop",
        "x-api-key=ZZZZZZZZZZZZ",
    ],
)
def test_key_shaped_strings_are_masked(redactor, text):
    redacted = redactor.redact(text)
    assert MASK in redacted
    for secret in ("AbCdEfGh12345678", "eyJhbGciOiJIUzI1NiJ9", "abcDEF123456", "AKIA1234567890XYZ",
                   "abcdefghijklmnop1234", "AIzaSyA1234567890", "ZZZZZZZZZZZZ"):
        assert secret not in redacted


def test_registered_values_are_masked_wherever_they_appear(redactor):
    redactor.register("correct horse battery")
    redactor.register("correct horse")  # overlapping: the longer one must win
    redactor.register("abc")  # too short to mask safely: ignored
    assert redactor.redact("say correct horse battery staple") == f"say {MASK} staple"
    assert redactor.redact("abc is fine") == "abc is fine"


def test_secret_env_vars_are_registered(redactor):
    redactor.register_environment({"OPENAI_API_KEY": "plainvalue1", "HOME": "/root/home",
                                   "HF_TOKEN": "another-value"})
    assert redactor.redact("plainvalue1 another-value /root/home") == f"{MASK} {MASK} /root/home"


def test_filter_masks_args_and_tracebacks(redactor):
    redactor.register("hunter2-hunter2")
    try:
        raise ValueError("provider said hunter2-hunter2 is wrong")
    except ValueError:
        record = logging.getLogger("t").makeRecord(
            "t", logging.ERROR, __file__, 1, "call with %s failed", ("hunter2-hunter2",), None
        )
        import sys

        record.exc_info = sys.exc_info()
    RedactingFilter(redactor).filter(record)
    assert record.getMessage() == f"call with {MASK} failed"
    assert "hunter2" not in (record.exc_text or "") and "ValueError" in record.exc_text


def test_tags():
    assert tag(chat="c1", run="r2") == "[chat c1] [run r2]"
    assert tag(chat="c1", run=None) == "[chat c1]"


def test_file_log_is_one_line_per_event_tagged_and_redacted(tmp_path, redactor):
    path = setup_logging(tmp_path, stderr=False, redactor=redactor)
    try:
        redactor.register("my-local-server-key")
        log = tagged("studyhall.test", chat="chat_1")
        log.info("first line\nsecond line with my-local-server-key")
        try:
            _ = 1 / 0
        except ZeroDivisionError:
            tagged(logging.getLogger("studyhall.test"), run="run_9").exception("extraction failed")
        logging.getLogger("litellm").warning("sending Bearer sk-live-1234567890abcdef")
        for handler in logging.getLogger().handlers:
            handler.flush()
    finally:
        setup_logging(None, stderr=False)
    lines = path.read_text().splitlines()
    assert len(lines) == 3
    assert "[chat chat_1] first line \\n second line with [redacted]" in lines[0]
    assert "[run run_9] extraction failed" in lines[1] and "ZeroDivisionError" in lines[1]
    assert "sk-live" not in lines[2] and "[redacted]" in lines[2]
    assert (path.stat().st_mode & 0o077) == 0


def test_setup_is_idempotent(tmp_path):
    try:
        setup_logging(tmp_path, stderr=True)
        setup_logging(tmp_path, stderr=True)
        ours = [h for h in logging.getLogger().handlers if getattr(h, "_studyhall_handler", False)]
        assert len(ours) == 2
    finally:
        setup_logging(None, stderr=False)
