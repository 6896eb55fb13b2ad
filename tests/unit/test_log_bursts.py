"""Running out of file descriptors is logged once per burst: a flood of failed accepts (10,787
lines in 15 s before) cannot rotate the log's history away, and ordinary lines are never held."""

from __future__ import annotations

import errno
import io
import logging

from studyhall.server.log_bursts import OncePerBurst, alarm_of
from studyhall.server.logging import setup_logging


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def accept_failed() -> logging.LogRecord:
    """What asyncio logs when accept() fails with EMFILE."""
    error = OSError(errno.EMFILE, "Too many open files")
    return logging.LogRecord("asyncio", logging.ERROR, __file__, 1,
                             "socket.accept() out of system resource", None,
                             (OSError, error, None))


def line(name: str, message: str, *args: object) -> logging.LogRecord:
    return logging.LogRecord(name, logging.WARNING, __file__, 1, message, args, None)


def test_out_of_file_descriptors_is_written_once_per_burst() -> None:
    clock = Clock()
    bursts = OncePerBurst(quiet=30, clock=clock)
    first = accept_failed()
    assert bursts.filter(first) is True
    assert "repeats are left out until 30 s pass without one" in first.getMessage()
    kept = []
    for _ in range(10_000):  # a flood, 1 ms apart: each repeat extends the burst
        clock.now += 0.001
        kept.append(bursts.filter(accept_failed()))
    assert not any(kept)
    clock.now += 29  # still the same burst: less than 30 s since the last one
    assert bursts.filter(accept_failed()) is False
    clock.now += 31  # quiet long enough: a new burst, which says what the last one left out
    again = accept_failed()
    assert bursts.filter(again) is True
    assert "10001 were left out of the last burst" in again.getMessage()


def test_the_message_or_the_exception_marks_the_alarm() -> None:
    assert alarm_of(line("uvicorn.error", "[Errno 24] Too many open files")) is not None
    assert alarm_of(accept_failed()) == alarm_of(line("x", "accept: Too many open files"))
    assert alarm_of(line("studyhall.http", "GET /api/health failed")) is None
    guard = line("studyhall.connections", "over %d open connections", 200)
    other = line("studyhall.connections", "closed a connection after %.0f s", 10)
    assert alarm_of(guard) != alarm_of(other)  # each kind of guard line has its own burst


def test_ordinary_lines_are_never_held_even_in_a_burst() -> None:
    clock = Clock()
    bursts = OncePerBurst(quiet=30, clock=clock)
    assert bursts.filter(accept_failed()) is True
    assert all(bursts.filter(line("studyhall.server", "event %d", i)) for i in range(100))


def test_every_handler_writes_the_first_line_once_and_drops_the_repeats(tmp_path,
                                                                       monkeypatch) -> None:
    stderr = io.StringIO()
    monkeypatch.setattr("sys.stderr", stderr)
    path = setup_logging(tmp_path)
    try:
        for _ in range(500):
            logging.getLogger("asyncio").error("socket.accept() out of system resource",
                                               exc_info=OSError(errno.EMFILE, "Too many open files"))
        logging.getLogger("studyhall.server").warning("after the flood")
        for handler in logging.getLogger().handlers:
            handler.flush()
    finally:
        setup_logging(None, stderr=False)
    assert path is not None
    for text in (path.read_text("utf-8"), stderr.getvalue()):
        assert text.count("out of system resource") == 1, text
        assert text.count("repeats are left out") == 1  # said once, not once per handler
        assert "after the flood" in text
