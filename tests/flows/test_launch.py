"""Real ``studyhall`` child processes: data-dir isolation, single instance, clean exit, fallbacks."""

from __future__ import annotations

import signal
import socket
import stat
from pathlib import Path

from studyhall.server.instance import RunningServer, read_server_file, write_server_file

from tests.support.server import child_env, get, running_child, start_child, wait_for_server

REPO = Path(__file__).resolve().parents[2]


def _files(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


def test_fresh_child_writes_only_into_its_data_dir(tmp_path):
    data, home, cwd, tmp = (tmp_path / n for n in ("data", "home", "cwd", "tmp"))
    for folder in (home, cwd, tmp):
        folder.mkdir()
    env = child_env(
        data, HOME=str(home), TMPDIR=str(tmp), XDG_CONFIG_HOME=str(home / ".config"),
        XDG_DATA_HOME=str(home / ".local/share"), XDG_CACHE_HOME=str(home / ".cache"),
        XDG_STATE_HOME=str(home / ".local/state"),
    )
    with running_child(data, env=env, cwd=cwd) as (child, info):
        assert get(info, "/api/health", info.token) == (200, {"ok": True, "version": "0.1.0"})
        assert get(info, "/api/health")[0] == 401
        server_json = data / "server.json"
        assert stat.S_IMODE(server_json.stat().st_mode) == 0o600
        assert read_server_file(data) == info
        assert info.url == f"http://127.0.0.1:{info.port}"
    assert child.proc.returncode == 0, child.output()
    assert not (data / "server.json").exists(), "server.json must go on a clean exit"
    assert (data / "logs" / "studyhall.log").is_file()
    assert f"[pid {info.pid}] serving" in (data / "logs" / "studyhall.log").read_text()
    for folder in (home, cwd, tmp):
        assert _files(folder) == set(), f"{folder.name} was written to: {_files(folder)}"
    repo_log = REPO / "data" / "logs" / "studyhall.log"
    if repo_log.exists():
        assert f"[pid {info.pid}]" not in repo_log.read_text(errors="replace")


def test_second_launch_reuses_the_running_server(tmp_path):
    with running_child(tmp_path) as (first, info):
        second = start_child(tmp_path, "--no-window")
        out = second.output()
        assert second.proc.returncode == 0, out
        assert "already running" in out and f"pid {info.pid}" in out
        assert info.launch_url in out
        assert first.proc.poll() is None, "the first instance must keep running"
        assert read_server_file(tmp_path) == info
        assert get(info, "/api/health", info.token)[0] == 200


def test_a_crashed_instance_leaves_nothing_that_blocks_the_next(tmp_path):
    child = start_child(tmp_path, "--no-window")
    crashed = wait_for_server(child)
    child.proc.send_signal(signal.SIGKILL)
    child.proc.wait()
    assert read_server_file(tmp_path) == crashed  # left behind by the crash
    with running_child(tmp_path) as (_, info):
        assert info.pid != crashed.pid
        assert get(info, "/api/health", info.token)[0] == 200


def test_a_stale_server_json_of_a_dead_pid_is_not_reused(tmp_path):
    write_server_file(tmp_path, RunningServer(pid=2**22 + 7, port=9, url="http://127.0.0.1:9",
                                              token="stale"))
    with running_child(tmp_path) as (_, info):
        assert info.token != "stale"


def test_port_flag_is_honoured_and_a_busy_port_is_a_clear_error(tmp_path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free_port = probe.getsockname()[1]
    with running_child(tmp_path / "a", "--port", str(free_port)) as (_, info):
        assert info.port == free_port
        busy = start_child(tmp_path / "b", "--no-window", "--port", str(free_port))
        out = busy.output()
        assert busy.proc.returncode == 1
        assert f"Port {free_port} is already in use" in out and "--port" in out


def test_without_a_display_it_says_so_prints_the_url_and_keeps_serving(tmp_path):
    env = child_env(tmp_path)
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        env.pop(name, None)
    child = start_child(tmp_path, env=env)  # window mode
    try:
        info = wait_for_server(child)
        # The window child fails fast; the server must still answer afterwards.
        assert _wait_for_line(child, "Press Ctrl+C to stop")
        assert get(info, "/api/health", info.token)[0] == 200
    finally:
        child.stop()
    out = child.seen + child.output()
    assert "no desktop window" in out and "no graphical display" in out
    assert info.launch_url in out


def _wait_for_line(child, needle: str, timeout: float = 30.0) -> bool:
    import selectors
    import time

    assert child.proc.stdout is not None
    seen = ""
    selector = selectors.DefaultSelector()
    selector.register(child.proc.stdout, selectors.EVENT_READ)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and needle not in seen:
        if selector.select(timeout=0.2):
            line = child.proc.stdout.readline()
            if not line:
                break
            seen += line
    child.seen = seen  # keep what we consumed for the final assertion
    return needle in seen


def test_secrets_never_reach_the_log_or_any_command_line(tmp_path):
    from studyhall.adapters.secrets import FileSecretStore

    secret = "sk-proj-UNIT" + "Q7w9" * 8
    custom = "ollama-local-" + "z8" * 10  # not key-shaped: only the store knows it is secret
    store = FileSecretStore(tmp_path / "secrets.json")
    store.set("openai", secret)
    store.set("ollama", custom)
    env = child_env(tmp_path, GROQ_API_KEY="gsk_" + "e" * 30)
    with running_child(tmp_path, env=env) as (_, info):
        # Hostile requests put the secrets where our own log lines echo them.
        for value in (secret, custom, info.token):
            get(info, f"/api/health?probe={value}")
            get(info, f"/api/health?token={value}", token="wrong")
        get(info, "/api/health", token=secret)
        cmdlines = _all_cmdlines()
    log_text = (tmp_path / "logs" / "studyhall.log").read_text()
    assert "refused GET /api/health" in log_text  # the hostile requests were logged...
    for value in (secret, custom, info.token, "gsk_" + "e" * 30):
        assert value not in log_text  # ...with every secret masked
        assert value not in cmdlines
    assert "[redacted]" in log_text


def _all_cmdlines() -> str:
    chunks = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                chunks.append((entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace"))
            except OSError:
                continue
    assert len(chunks) > 3, "could not read the process table"
    return "\n".join(chunks)


def test_an_unreadable_key_file_does_not_stop_the_app(tmp_path):
    (tmp_path / "secrets.json").write_text("{ not json")
    with running_child(tmp_path) as (_, info):
        assert get(info, "/api/health", info.token)[0] == 200
    log_text = (tmp_path / "logs" / "studyhall.log").read_text()
    assert "[secrets] The key file" in log_text and "not valid JSON" in log_text
    assert (tmp_path / "secrets.json").read_text() == "{ not json"  # never overwritten
