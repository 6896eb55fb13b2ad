"""The ``studyhall`` command: open the app (default) or run a subcommand from ``commands/``.
Whatever fails becomes one line on stderr and an exit code (``desktop/failures.py``)."""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from studyhall import __version__
from studyhall.desktop.failures import report
from studyhall.server.config import DATA_DIR_ENV

# Subcommand modules under studyhall.desktop.commands (each exposes ``register(subparsers)``).
COMMANDS: tuple[str, ...] = (
    "graph", "plan", "ask", "eval", "notes_import", "sources", "privacy", "review", "stats",
    "export", "make",
)


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError("the port must be between 1 and 65535")
    return port


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="studyhall",
        description="Studyhall: study with an LLM teacher; everything you learn lands in one "
        "knowledge graph. Without a command, opens the app window.",
    )
    parser.add_argument("--version", action="version", version=f"studyhall {__version__}")
    parser.add_argument(
        "--no-window", action="store_true",
        help="serve only: print the URL to open in a browser, do not open a window",
    )
    parser.add_argument("--port", type=_port, help="serve on this port (default: a free one)")
    parser.add_argument(
        "--data-dir", type=Path,
        help=f"where Studyhall keeps its data (default: ${DATA_DIR_ENV}, ./data in a source "
        "checkout, else your user data folder)",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"studyhall.desktop.commands.{name}").register(subparsers)
    return parser


def _command_logging() -> None:
    """Commands log like the server (redacted, to the data dir's log), warnings on stderr."""
    import logging

    from studyhall.server.config import resolve_data_dir
    from studyhall.server.logging import setup_logging

    try:
        setup_logging(resolve_data_dir(), stderr_level=logging.WARNING)
    except OSError as e:  # an unwritable data dir is the command's to report, not ours
        setup_logging(None, stderr_level=logging.WARNING)
        logging.getLogger("studyhall").warning("cannot write the log file: %s", e.strerror)


@contextlib.contextmanager
def _importing(*, freeze: bool = False) -> Iterator[None]:
    """No cyclic garbage collection while start-up imports run (``freeze``: and what they
    built is left out of every later collection).

    Importing the app creates ~90,000 objects that live as long as the process (modules,
    classes, functions); the collector would walk them again and again on the way, finding
    nothing to free: about a fifth of the server's start-up (bench/startup.py).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze:  # only where the process is ours for good: not when a test calls main()
            gc.freeze()
        if was_enabled:
            gc.enable()


def main(argv: list[str] | None = None) -> int:
    with _importing():
        args = build_parser().parse_args(argv)
    if args.data_dir is not None:
        # Through the environment, so every load_config() in this process (and any child
        # process) sees the same data dir.
        os.environ[DATA_DIR_ENV] = str(args.data_dir.expanduser().resolve())
    try:
        handler = getattr(args, "func", None)
        if handler is not None:
            _command_logging()
        if handler is None:
            with _importing(freeze=True):
                from studyhall.desktop.launcher import launch
            return launch(window=not args.no_window, port=args.port)
        return int(handler(args))
    except (Exception, KeyboardInterrupt) as e:  # noqa: BLE001 - the top: one line per failure
        return report(e)


if __name__ == "__main__":
    sys.exit(main())
