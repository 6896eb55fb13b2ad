"""``OncePerBurst``: a logging filter that lets the first of a burst of the same alarm through and
drops its repeats, so a flood (every failed accept() says "Too many open files") cannot rotate the
log's history away. A burst ends after ``quiet`` seconds without that alarm; the first line of
the next burst says how many were left out of the last one.

The alarms: running out of file descriptors (EMFILE/ENFILE, in the message or the exception)
and the connection guard's own lines (``studyhall.connections``).
"""

from __future__ import annotations

import errno
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

QUIET_SECONDS = 30.0
_OUT_OF_FILES = (errno.EMFILE, errno.ENFILE)
_OUT_OF_FILES_TEXT = ("Too many open files", "out of system resource")
_GUARD_LOGGER = "studyhall.connections"


def alarm_of(record: logging.LogRecord) -> str | None:
    """Which repeated alarm ``record`` is (``None``: an ordinary line, always written)."""
    if record.name == _GUARD_LOGGER:
        return f"{_GUARD_LOGGER}:{record.msg}"  # the template: each kind of guard line apart
    error = record.exc_info[1] if record.exc_info else None
    if isinstance(error, OSError) and error.errno in _OUT_OF_FILES:
        return "out of file descriptors"
    text = f"{_message(record)} {record.exc_text or ''}"
    if any(marker in text for marker in _OUT_OF_FILES_TEXT):
        return "out of file descriptors"
    return None


@dataclass
class _Burst:
    last: float
    left_out: int = 0


class OncePerBurst(logging.Filter):
    """Drop the repeats of an alarm until it has been quiet for ``quiet`` seconds. One instance
    sits on every handler: a record is judged once, and each handler gets the same answer."""

    def __init__(self, quiet: float = QUIET_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self._quiet = quiet
        self._clock = clock
        self._bursts: dict[str, _Burst] = {}
        self._judged: tuple[logging.LogRecord, bool] | None = None

    def filter(self, record: logging.LogRecord) -> bool:
        if self._judged is not None and self._judged[0] is record:
            return self._judged[1]
        keep = self._judge(record)
        self._judged = (record, keep)
        return keep

    def _judge(self, record: logging.LogRecord) -> bool:
        alarm = alarm_of(record)
        if alarm is None:
            return True
        now = self._clock()
        burst = self._bursts.get(alarm)
        if burst is not None and now - burst.last < self._quiet:
            burst.last = now
            burst.left_out += 1
            return False
        note = f" (repeats are left out until {self._quiet:.0f} s pass without one"
        if burst is not None and burst.left_out:
            note += f"; {burst.left_out} were left out of the last burst"
        self._bursts[alarm] = _Burst(last=now)
        record.msg = f"{_message(record)}{note})"
        record.args = None
        return True


def _message(record: logging.LogRecord) -> str:
    try:
        return record.getMessage()
    except (TypeError, ValueError):  # a bad %-format must not lose the event
        return f"{record.msg!r} {record.args!r}"
