"""The learner's walk against a real tiny model (issue 31): llama.cpp's llama-server serving
SmolLM2-135M-Instruct on 127.0.0.1 (built and cached by ``tests/support/llama_server.py``),
every role pointed at it. Prints turns that end cleanly / total, turns where a structured
question reached the learner, the median time to first byte, extraction runs that wrote
something vs failed cleanly, and each phase's seconds. ``--runs N`` repeats the session walk.

    .venv/bin/python bench/real_model.py [--runs 2]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ["STUDYHALL_TESTING"] = "1"  # loopback only: nothing leaves the machine


async def walk(runs: int, server: object, root: Path) -> None:
    from tests.support.real_model_walk import (
        Tally,
        artifact_walk,
        ask_walk,
        ledger_problems,
        quiz_me_walk,
        session_walk,
        timed,
    )
    from tests.support.real_models import real_app, real_services

    tally, phases = Tally(), []
    for run in range(runs):
        os.environ["STUDYHALL_DATA_DIR"] = str(root / f"data{run}")
        services = timed(real_services(server), tally)  # type: ignore[arg-type]
        async with real_app(server, services) as (api, runtime, _):  # type: ignore[arg-type]
            started = time.monotonic()
            await session_walk(api, runtime, tally)
            phases.append(("session + extraction", time.monotonic() - started))
            if run == 0:
                for name, step in (("Ask", ask_walk(api, runtime, tally, root)),
                                   ("Quiz me", quiz_me_walk(api, runtime, tally, root)),
                                   ("artifact", artifact_walk(api, runtime, tally))):
                    started = time.monotonic()
                    await step
                    phases.append((name, time.monotonic() - started))
            bad = ledger_problems(runtime.services)
    for line in tally.lines():
        print(line)
    print(f"bad ledger lines: {len(bad)}")
    for name, seconds in phases:
        print(f"{name}: {seconds:.0f} s")
    for problem in tally.problems:
        print(f"problem: {problem}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    from tests.support.llama_server import Unavailable, running_llama_server

    try:
        with running_llama_server() as server, tempfile.TemporaryDirectory() as tmp:
            asyncio.run(walk(args.runs, server, Path(tmp)))
    except Unavailable as why:
        print(f"skipped: {why}")


if __name__ == "__main__":
    main()
