"""Logging: one line per event, correlation-tagged, to stderr and a rotating file; redacted.

Redaction sits on the handlers, so every record from any library (uvicorn, litellm, ...) is
masked before it is written, whoever logged it; a flood of one alarm (out of file descriptors)
is written once per burst (``log_bursts``), so it cannot rotate the history away.
Tags: ``tag(chat=id, run=id)`` gives ``[chat <id>] [run <id>]``; ``tagged(logger, chat=id)``
prefixes every line of a logger.
"""

from __future__ import annotations

import logging
import logging.handlers
import os
import sys
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

from studyhall.server.config import make_private_dir
from studyhall.server.log_bursts import OncePerBurst
from studyhall.server.redaction import REDACTOR, Redactor

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
_MAX_BYTES = 5 * 1024 * 1024
_BACKUPS = 3
_OURS = "_studyhall_handler"


class RedactingFilter(logging.Filter):
    """Renders the message once, masks secrets in it (and in any traceback), freezes the result."""

    def __init__(self, redactor: Redactor = REDACTOR) -> None:
        super().__init__()
        self._redactor = redactor

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except (TypeError, ValueError):  # a bad %-format must not lose the event
            message = f"{record.msg!r} {record.args!r}"
        record.msg = self._redactor.redact(message)
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self._redactor.redact(record.exc_text)
        record.exc_info = None  # the formatter must use the redacted text, not re-render
        if record.stack_info:
            record.stack_info = self._redactor.redact(record.stack_info)
        return True


class OneLineFormatter(logging.Formatter):
    """Each event is exactly one line: newlines inside a message or traceback are escaped."""

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        return text.replace("\r", "\\r").replace("\n", " \\n ")


def tag(**ids: str | None) -> str:
    """``tag(chat="c1", run="r2")`` -> ``"[chat c1] [run r2]"`` (empty values are skipped)."""
    return " ".join(f"[{kind} {value}]" for kind, value in ids.items() if value)


class _Tagged(logging.LoggerAdapter):  # type: ignore[type-arg]
    def process(self, msg: Any, kwargs: MutableMapping[str, Any]) -> tuple[Any, MutableMapping[str, Any]]:
        return f"{self.extra['prefix']} {msg}", kwargs  # type: ignore[index]


def tagged(logger: logging.Logger | str, **ids: str | None) -> logging.LoggerAdapter:  # type: ignore[type-arg]
    base = logging.getLogger(logger) if isinstance(logger, str) else logger
    return _Tagged(base, {"prefix": tag(**ids)})


def log_path(data_dir: Path) -> Path:
    return data_dir / "logs" / "studyhall.log"


def setup_logging(
    data_dir: Path | None,
    *,
    level: int = logging.INFO,
    stderr: bool = True,
    stderr_level: int = logging.NOTSET,
    redactor: Redactor = REDACTOR,
) -> Path | None:
    """Install our handlers on the root logger (idempotent); returns the log file path."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        if getattr(handler, _OURS, False):
            root.removeHandler(handler)
            handler.close()
    formatter = OneLineFormatter(LOG_FORMAT)
    handlers: list[logging.Handler] = []
    if stderr:
        console = logging.StreamHandler(sys.stderr)
        console.setLevel(stderr_level)  # commands keep the terminal for warnings and up
        handlers.append(console)
    path: Path | None = None
    if data_dir is not None:
        path = log_path(data_dir)
        make_private_dir(path.parent)  # often the first write: the data folder is made here
        file_handler = logging.handlers.RotatingFileHandler(
            path, maxBytes=_MAX_BYTES, backupCount=_BACKUPS, encoding="utf-8"
        )
        _private(path)
        handlers.append(file_handler)
    bursts = OncePerBurst()  # one for all handlers: each drops the same repeats
    for handler in handlers:
        setattr(handler, _OURS, True)
        handler.setFormatter(formatter)
        handler.addFilter(bursts)
        handler.addFilter(RedactingFilter(redactor))
        root.addHandler(handler)
    root.setLevel(level)
    # Per-request access lines would drown the events that matter.
    logging.getLogger("uvicorn.access").setLevel(logging.WARNING)
    return path


def _private(path: Path) -> None:
    try:
        os.chmod(path, 0o600)
    except OSError:
        pass
