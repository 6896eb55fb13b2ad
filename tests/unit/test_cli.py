"""The CLI: subcommands plug in from ``desktop/commands``; errors become one clear line."""

from __future__ import annotations

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
