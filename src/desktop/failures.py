"""How a command's failure reaches the user: one line on stderr and a documented exit code,
never a traceback (the traceback of a bug goes to the log file, where a report can quote it).

    exit  meaning
    0     done
    1     the command could not do it; the line says why and what to do (``StudyhallError``,
          a file that cannot be read or written)
    2     the command line is wrong (an unknown flag, a value out of range)
    3     the running app stopped answering in the middle of the command
    70    a bug: something unexpected failed; the log file has the details
    130   interrupted (Ctrl+C)
"""

from __future__ import annotations

import http.client
import logging
import os
import sys

from studyhall.core.errors import StudyhallError

OK = 0
FAILED = 1
USAGE = 2
APP_GONE = 3
BUG = 70
INTERRUPTED = 130

LOG_HINT = "logs/studyhall.log in the data folder"


class CommandError(Exception):
    """A command's own failure, said in one line (the app's errors are ``StudyhallError``)."""


class AppGone(CommandError):
    """The running app this command talked to stopped answering (it quit or crashed)."""


class UsageError(CommandError):
    """The command line asks for something no command can do (a value out of range)."""


# What a socket to the running app raises when the app dies mid-request: refused (it is gone),
# reset, or a response cut off (``IncompleteRead``, ``RemoteDisconnected``).
CONNECTION_LOST = (ConnectionError, TimeoutError, http.client.HTTPException)


def say(message: str) -> None:
    """One line on stderr, whatever the text holds (bytes that were not UTF-8 included)."""
    line = " ".join(str(message).split())
    sys.stderr.write(f"studyhall: {line}\n".encode("utf-8", "backslashreplace").decode("utf-8"))
    sys.stderr.flush()


def report(error: BaseException) -> int:
    """Say what failed, in one line; the exit code for it."""
    if isinstance(error, KeyboardInterrupt):
        return INTERRUPTED
    if isinstance(error, AppGone):
        say(str(error))
        return APP_GONE
    if isinstance(error, UsageError):
        say(str(error))
        return USAGE
    if isinstance(error, StudyhallError):
        say(str(error))
        return FAILED
    if isinstance(error, BrokenPipeError):
        _silence_stdout()  # the reader went away (``| head``): nothing left to say to it
        return FAILED
    if isinstance(error, CONNECTION_LOST):
        say(f"lost the connection to the running app ({_what(error)}). Check that Studyhall is "
            "still running, then run the command again.")
        return APP_GONE
    if isinstance(error, OSError):
        where = f" ({error.filename})" if error.filename else ""
        say(f"{error.strerror or _what(error)}{where}. Check the path and its permissions, then "
            "run the command again.")
        return FAILED
    _log_to_file(error)
    say(f"something unexpected failed ({_what(error)}). This is a bug: the details are in "
        f"{LOG_HINT}; please include them when you report it.")
    return BUG


def _what(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    detail = text[0][:200] if text else ""
    return f"{type(error).__name__}: {detail}" if detail else type(error).__name__


def _log_to_file(error: BaseException) -> None:
    """The traceback to the log file only (redacted like every line there): the terminal
    console handler would print it, and a command's terminal gets one line."""
    record = logging.LogRecord("studyhall.cli", logging.ERROR, __file__, 0,
                               "a command failed unexpectedly", None,
                               (type(error), error, error.__traceback__))
    for handler in logging.getLogger().handlers:
        if isinstance(handler, logging.FileHandler):
            handler.handle(record)


def _silence_stdout() -> None:
    # Python flushes stdout again at exit; pointing it at devnull keeps that flush quiet.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
