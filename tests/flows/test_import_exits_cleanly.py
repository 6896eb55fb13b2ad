"""No crash at exit: ``studyhall import deck.apkg --json --no-embed`` once printed its whole
report and then aborted (rc −6, "FATAL: exception not rethrown"): a daemon thread of the app — the
keyring probe started at start-up, or a graph fold-cache save — was still inside native code when
the interpreter exited, and was torn down there. Shutdown now waits for both."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time

import pytest
from studyhall.server.startup_work import StartupWork

from tests.support.anki_deck import write_deck

RUNS = 30
AT_ONCE = 3  # runs side by side (each its own data folder)


async def test_start_up_work_is_joined_on_shutdown():
    started = threading.Event()

    def probe() -> None:  # a slow keyring probe
        started.set()
        time.sleep(0.3)

    work = StartupWork(probe, name="slow probe")
    await work.start()
    assert started.wait(5)
    await work.aclose()
    assert not any(t.name == "slow probe" for t in threading.enumerate())


async def test_a_fold_cache_save_in_flight_ends_before_the_runtime_stops(tmp_path,
                                                                         monkeypatch):
    from studyhall.adapters.store import JsonlGraphStore
    from studyhall.server.runtime.runtime import stop

    from tests.support.session_api import scripted_app

    save = JsonlGraphStore.save_fold_cache

    def slow_save(self, marks, state):  # a big graph's save: still writing at the exit
        time.sleep(0.5)
        save(self, marks, state)

    monkeypatch.setattr(JsonlGraphStore, "save_fold_cache", slow_save)
    deck = write_deck(tmp_path / "spanish.apkg")
    async with scripted_app(None) as (_api, runtime):
        reader = runtime.library._upkeep.reader
        reader._save_after = 1  # the import's reads save the cache, in its daemon thread
        await runtime.library.import_here(str(deck), embed=False)
        assert reader._saver is not None and reader._saver.is_alive()
        await stop(runtime)
        assert not reader._saver.is_alive()


@pytest.mark.slow
def test_the_anki_import_exits_cleanly_thirty_times_in_a_row(tmp_path):
    deck = write_deck(tmp_path / "legacy.apkg")
    env = {k: v for k, v in os.environ.items() if k != "STUDYHALL_TESTING"}
    # As the learner runs it (the keyring probe starts in its thread), but keyring's "fail"
    # backend: the probe runs and finds no keyring; a real one is never touched.
    env["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"
    started = time.monotonic()
    for wave in range(0, RUNS, AT_ONCE):  # a few at a time: the suite's 3-minute budget
        running = []
        for n in range(wave, min(wave + AT_ONCE, RUNS)):
            own = {**env, "STUDYHALL_DATA_DIR": str(tmp_path / f"data{n % 6}")}  # new, again
            running.append((n, subprocess.Popen(
                [sys.executable, "-m", "studyhall.desktop.cli", "import", str(deck), "--json",
                 "--no-embed"], env=own, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                text=True)))
        for n, proc in running:
            out, err = proc.communicate(timeout=120)
            assert proc.returncode == 0, (n, proc.returncode, err[-2000:])
            assert json.loads(out)["notes"] == 3 and "FATAL" not in err
    assert time.monotonic() - started < 180
