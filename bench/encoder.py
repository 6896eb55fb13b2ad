"""The ONNX encoder's ways of using the cores, on real-shaped note texts, alone and beside a
busy Python thread (as an import merges notes while it embeds).

    .venv/bin/python bench/encoder.py [--texts 2500] [--repeat 2]

Prints texts/s and CPU use for: one run split over every core (ONNX Runtime's intra-op
threads), and single-threaded runs side by side (the app's choice), at several run sizes.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.support


def _texts(count: int) -> list[str]:
    from tests.support.real_vault import make_real_vault

    with tempfile.TemporaryDirectory() as tmp:
        vault = make_real_vault(Path(tmp) / "Vault", notes=max(50, count // 8))
        texts = [part for note in sorted(vault.root.rglob("*.md"))
                 for part in note.read_text().split("\n\n") if len(part) > 20]
    unique = sorted(set(texts), key=len, reverse=True)
    return unique[:: max(1, len(unique) // count)][:count]


def _busy(stop: threading.Event) -> None:
    x = 0
    while not stop.is_set():
        for i in range(10_000):
            x += i * i


def _measure(label: str, work: Callable[[], None], count: int, beside_python: bool) -> None:
    stop = threading.Event()
    other = threading.Thread(target=_busy, args=(stop,)) if beside_python else None
    if other is not None:
        other.start()
    before, started = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
    work()
    wall, after = time.perf_counter() - started, resource.getrusage(resource.RUSAGE_SELF)
    stop.set()
    if other is not None:
        other.join()
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    print(f"  {label:44s} {count / wall:6.0f} texts/s  {cpu / wall:4.2f} cores busy")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=int, default=2500)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    import onnxruntime as ort
    from studyhall.adapters.embed import onnx_minilm
    from studyhall.adapters.embed.onnx_export import bundled_model_dir, exported_model

    with tempfile.TemporaryDirectory() as models:
        model_dir = bundled_model_dir()
        path = exported_model(Path(models), model_dir)
        _, tokenizer = onnx_minilm._session(Path(models))
        cores = os.cpu_count() or 1

        def session(threads: int) -> object:
            options = ort.SessionOptions()
            options.intra_op_num_threads, options.inter_op_num_threads = threads, 1
            return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])

        split, single = session(cores), session(1)
        texts = _texts(args.texts)
        print(f"{len(texts)} texts, {sum(map(len, texts)) // len(texts)} characters on average, "
              f"{cores} cores")

        def run(sess: object, batch: int, runners: int) -> Callable[[], None]:
            def work() -> None:
                onnx_minilm._runners = ThreadPoolExecutor(runners)
                for first in range(0, len(texts), 512):
                    onnx_minilm.encode(sess, tokenizer, texts[first : first + 512], batch)
            return work

        for _ in range(args.repeat):
            for beside in (False, True):
                print("beside a busy Python thread:" if beside else "alone:")
                _measure(f"one run of 32 split over {cores} threads", run(split, 32, 1),
                         len(texts), beside)
                for batch in (32, 16, 8):
                    _measure(f"{cores} single-threaded runs of {batch} side by side",
                             run(single, batch, cores), len(texts), beside)


if __name__ == "__main__":
    main()
