"""The CLI: subcommands plug in from ``desktop/commands``; errors become one clear line."""

from __future__ import annotations

import http.client
import os
import sys
import types

import pytest
from studyhall.core.errors import StudyhallError
from studyhall.desktop import cli


@pytest.fixture
def fake_command(monkeypatch):
    calls = []
    module = types.ModuleType("studyhall.desktop.commands.fake")

    def handler(args):
        calls.append(args)
        if args.value == "boom":
            raise StudyhallError("The thing failed. Do this instead.")
        return 7

    def register(subparsers):
        parser = subparsers.add_parser("fake", help="a test command")
        parser.add_argument("value")
        parser.set_defaults(func=handler)

    module.register = register
    monkeypatch.setitem(sys.modules, "studyhall.desktop.commands.fake", module)
    monkeypatch.setattr(cli, "COMMANDS", (*cli.COMMANDS, "fake"))
    return calls


def test_listed_command_is_registered_and_dispatched(fake_command):
    assert cli.main(["fake", "x"]) == 7
    assert fake_command[0].value == "x"


def test_a_studyhall_error_is_one_line_and_exit_1(fake_command, capsys):
    assert cli.main(["fake", "boom"]) == 1
    assert capsys.readouterr().err == "studyhall: The thing failed. Do this instead.\n"


def test_data_dir_flag_reaches_every_later_load_config(fake_command, tmp_path, monkeypatch):
    monkeypatch.setenv("STUDYHALL_DATA_DIR", "/somewhere/else")
    cli.main(["--data-dir", str(tmp_path), "fake", "x"])
    from studyhall.server.config import load_config

    assert os.environ["STUDYHALL_DATA_DIR"] == str(tmp_path.resolve())
    assert load_config().data_dir == tmp_path.resolve()


@pytest.mark.parametrize("port", ["0", "65536", "http"])
def test_bad_port_is_refused_by_the_parser(port, capsys):
    with pytest.raises(SystemExit) as caught:
        cli.build_parser().parse_args(["--port", port])
    assert caught.value.code == 2
    assert "port" in capsys.readouterr().err


def test_every_listed_command_module_exists_and_registers():
    parser = cli.build_parser()  # imports each listed module; a broken one fails here
    assert parser.prog == "studyhall"


def test_commands_log_redacted_to_the_data_dir(fake_command, tmp_path, monkeypatch, capsys):
    import logging

    from studyhall.server.logging import setup_logging

    monkeypatch.setenv("STUDYHALL_DATA_DIR", str(tmp_path))
    try:
        cli.main(["fake", "x"])
        logging.getLogger("studyhall.cmd").warning("provider said: bad key sk-abcdefghijklmnop1234")
        logging.getLogger("studyhall.cmd").info("quiet detail")
        for handler in logging.getLogger().handlers:
            handler.flush()
    finally:
        setup_logging(None, stderr=False)
    err = capsys.readouterr().err
    assert "[redacted]" in err and "sk-abcdefghijklmnop1234" not in err
    assert "quiet detail" not in err  # info stays in the file
    log_text = (tmp_path / "logs" / "studyhall.log").read_text()
    assert "quiet detail" in log_text and "sk-abcdefghijklmnop1234" not in log_text


@pytest.fixture
def failing_command(monkeypatch):
    """A command that raises whatever the test puts in ``raised``."""
    raised: list[BaseException] = []
    module = types.ModuleType("studyhall.desktop.commands.failing")

    def handler(args):
        raise raised[0]

    def register(subparsers):
        subparsers.add_parser("failing").set_defaults(func=handler)

    module.register = register
    monkeypatch.setitem(sys.modules, "studyhall.desktop.commands.failing", module)
    monkeypatch.setattr(cli, "COMMANDS", (*cli.COMMANDS, "failing"))
    return raised


def test_an_unexpected_error_is_one_line_a_hint_and_exit_70(failing_command, capsys,
                                                             _isolated_data_dir):
    failing_command.append(ValueError("bad thing\nsecond line"))
    assert cli.main(["failing"]) == 70
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "ValueError: bad thing" in err and "logs/studyhall.log" in err
    log = (_isolated_data_dir / "logs" / "studyhall.log").read_text()
    assert "Traceback" in log and "ValueError: bad thing" in log  # the details, for a report


@pytest.mark.parametrize(("error", "said"), [
    (ConnectionRefusedError(111, "Connection refused"), "connection refused"),
    (ConnectionResetError(104, "Connection reset by peer"), "connection reset"),
    (http.client.RemoteDisconnected("Remote end closed connection"), "connection reset"),
    (http.client.IncompleteRead(b"{", 4096), "its answer was cut off"),
    (TimeoutError(), "no answer in time"),
])
def test_a_lost_connection_to_the_app_is_named_for_how_it_was_lost(error, said):
    # The flows that kill an app mid-import accept any of these (which comes first is a race);
    # the words for each stay precise, held here without a race.
    from studyhall.desktop.commands.notes_import import _lost

    assert _lost(error) == said


@pytest.mark.parametrize(("error", "code", "said"), [
    (FileNotFoundError(2, "No such file or directory", "/x/y"), 1, "No such file or directory (/x/y)"),
    (ConnectionRefusedError(111, "Connection refused"), 3, "lost the connection to the running app"),
    (KeyboardInterrupt(), 130, ""),
])
def test_system_errors_are_one_line_with_their_code(failing_command, capsys, error, code, said):
    failing_command.append(error)
    assert cli.main(["failing"]) == code
    err = capsys.readouterr().err
    assert "Traceback" not in err and said in err and err.count("\n") == (1 if said else 0)
