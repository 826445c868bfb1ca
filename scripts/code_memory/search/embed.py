"""Dense embeddings with fastembed (imported lazily; optional).

A :class:`ModelSpec` names the model: a fastembed model (default ``BAAI/bge-small-zh-v1.5``) or a
local ONNX directory (``embedding.model_path`` with name, dim, pooling, normalize) registered with
``TextEmbedding.add_custom_model`` and loaded with ``specific_model_path`` — no network.

Vectors are stored in the index as float32 blobs keyed by (chunk digest, model key); only chunks
whose digest has no vector for the current model are embedded.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
import time
from dataclasses import dataclass

MAX_EMBED_CHARS = 2000


class EmbeddingUnavailable(Exception):
    """The model cannot be loaded here; ``str(exc)`` is a short reason for the ``degraded`` field."""


@dataclass(frozen=True)
class ModelSpec:
    name: str
    path: str | None = None
    dim: int | None = None
    pooling: str = "cls"
    normalize: bool = True

    @property
    def key(self) -> str:
        """What the vectors table records as the model: the name, plus a digest of a local path."""
        if not self.path:
            return self.name
        digest = hashlib.sha256(f"{os.path.realpath(self.path)}|{self.pooling}|{self.normalize}".encode()).hexdigest()[:8]
        return f"{self.name}@{digest}"

    def to_json(self) -> str:
        return json.dumps({"name": self.name, "path": self.path, "dim": self.dim,
                           "pooling": self.pooling, "normalize": self.normalize}, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> "ModelSpec":
        return cls(**json.loads(text))


def spec_from_config(embedding_cfg: dict) -> ModelSpec:
    path = embedding_cfg.get("model_path")
    return ModelSpec(
        name=embedding_cfg.get("model") or "BAAI/bge-small-zh-v1.5",
        path=os.path.abspath(os.path.expanduser(path)) if path else None,
        dim=embedding_cfg.get("dim"),
        pooling=(embedding_cfg.get("pooling") or "cls").lower(),
        normalize=bool(embedding_cfg.get("normalize", True)),
    )


def fastembed_installed() -> bool:
    try:
        return importlib.util.find_spec("fastembed") is not None and importlib.util.find_spec("numpy") is not None
    except (ImportError, ValueError):
        return False


def quick_check(spec: ModelSpec) -> str | None:
    """A reason the model certainly cannot load, found without importing fastembed; else None."""
    if not fastembed_installed():
        return "fastembed is not installed (pip install 'code-memory[vector]')"
    if spec.path:
        if not os.path.isfile(os.path.join(spec.path, "model.onnx")):
            return f"no model.onnx in embedding.model_path {spec.path}"
        if not spec.dim:
            return "embedding.dim is required with embedding.model_path"
    return None


class Embedder:
    """A loaded model. ``embed`` returns a float32 numpy matrix, one L2-normalized row per text."""

    def __init__(self, spec: ModelSpec, model):
        self.spec = spec
        self.model = model

    def embed(self, texts: list, batch_size: int = 16):
        """Embed in batches of similar length (sorted, then restored to the input order): every
        batch is padded to its longest text, so mixing lengths wastes much of the work — sorting
        made embedding about 2x faster here (BENCHMARKS.md)."""
        import numpy as np

        if not texts:
            return np.zeros((0, self.spec.dim or 0), dtype=np.float32)
        clipped = [t[:MAX_EMBED_CHARS] if t else " " for t in texts]
        order = sorted(range(len(clipped)), key=lambda i: len(clipped[i]))
        rows = list(self.model.embed([clipped[i] for i in order], batch_size=batch_size))
        mat = np.empty((len(rows), len(rows[0])), dtype=np.float32)
        mat[order] = np.asarray(rows, dtype=np.float32)
        norms = np.linalg.norm(mat, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        return mat / norms

    def embed_query(self, text: str):
        return self.embed([text])[0]


_LOADED: dict = {}

HUB_HOSTS = ("huggingface.co", "storage.googleapis.com")


def hub_reachable(timeout: float = 3.0) -> bool:
    """Can fastembed's download sources be reached? (fastembed itself retries for ~40 s offline.)"""
    import socket
    import threading

    result = []

    def probe():
        for host in HUB_HOSTS:
            try:
                with socket.create_connection((host, 443), timeout=timeout):
                    result.append(True)
                    return
            except OSError:
                continue

    thread = threading.Thread(target=probe, daemon=True)
    thread.start()
    thread.join(timeout * len(HUB_HOSTS) + 1)
    return bool(result)


def _quietly(make):
    """``make()`` with fastembed's own logging off: probing the local cache for a model that is not
    there makes fastembed log two ERROR lines to stderr, which we replace by one ``degraded`` reason."""
    try:
        from loguru import logger
    except ImportError:
        return make()
    logger.disable("fastembed")
    try:
        return make()
    finally:
        logger.enable("fastembed")


def load_model(spec: ModelSpec, allow_download: bool = False) -> Embedder:
    """Load the model (once per process). Raises EmbeddingUnavailable with a reason."""
    if spec.key in _LOADED:
        return _LOADED[spec.key]
    reason = quick_check(spec)
    if reason:
        raise EmbeddingUnavailable(reason)
    try:
        from fastembed import TextEmbedding
    except Exception as exc:  # broken installs raise all sorts of things
        raise EmbeddingUnavailable(f"fastembed failed to import ({type(exc).__name__})") from None
    try:
        if spec.path:
            from fastembed.common.model_description import ModelSource, PoolingType

            pooling = {"cls": PoolingType.CLS, "mean": PoolingType.MEAN}.get(spec.pooling)
            if pooling is None:
                raise EmbeddingUnavailable(f"unknown pooling {spec.pooling!r} (cls or mean)")
            known = {m["model"] for m in TextEmbedding.list_supported_models()}
            if spec.name not in known:
                TextEmbedding.add_custom_model(model=spec.name, pooling=pooling, normalization=spec.normalize,
                                               sources=ModelSource(hf=spec.name), dim=int(spec.dim),
                                               model_file="model.onnx")
            model = TextEmbedding(model_name=spec.name, specific_model_path=spec.path)
        else:
            try:
                model = _quietly(lambda: TextEmbedding(model_name=spec.name, local_files_only=True))
            except Exception:
                if not allow_download:
                    raise
                if not hub_reachable():
                    raise EmbeddingUnavailable(
                        f"model {spec.name} is not downloaded and the model hub cannot be reached (offline?);"
                        " set embedding.model_path to a local ONNX model directory") from None
                model = TextEmbedding(model_name=spec.name)
    except EmbeddingUnavailable:
        raise
    except Exception as exc:
        text = str(exc).splitlines()[0][:160] if str(exc) else type(exc).__name__
        raise EmbeddingUnavailable(f"model {spec.name} could not be loaded: {text}") from None
    embedder = Embedder(spec, model)
    if not spec.dim:
        dim = int(embedder.embed(["dimension probe"]).shape[1])
        embedder.spec = ModelSpec(spec.name, spec.path, dim, spec.pooling, spec.normalize)
    _LOADED[spec.key] = embedder
    return embedder


# ---------------------------------------------------------------------------------------------
# remembering a model that cannot load, so searches do not retry it every time

def _failure_path(index_dir: str, spec: ModelSpec) -> str:
    return os.path.join(index_dir, "embedding-unavailable-" + hashlib.sha256(spec.key.encode()).hexdigest()[:10] + ".json")


def recent_reason(path: str, ttl_seconds: float) -> str | None:
    """The ``reason`` of a ``{"reason", "at"}`` failure file written less than ``ttl_seconds`` ago
    (this module's failure files, the embedding daemon's ``<socket>.error``); else None."""
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return None
    if time.time() - float(data.get("at", 0)) > ttl_seconds:
        return None
    return data.get("reason")


def recent_failure(index_dir: str, spec: ModelSpec, retry_seconds: float = 3600) -> str | None:
    return recent_reason(_failure_path(index_dir, spec), retry_seconds)


def remember_failure(index_dir: str, spec: ModelSpec, reason: str) -> None:
    from ..fsutil import atomic_write_json

    try:
        atomic_write_json(_failure_path(index_dir, spec), {"model": spec.key, "reason": reason, "at": time.time()})
    except OSError:
        pass


def forget_failure(index_dir: str, spec: ModelSpec) -> None:
    try:
        os.unlink(_failure_path(index_dir, spec))
    except OSError:
        pass


# ---------------------------------------------------------------------------------------------
# vectors in the index

def embedding_text(title: str, heading: str, text: str) -> str:
    """What a chunk's vector is computed from: its document title and heading, then its text."""
    head = f"{title} — {heading}" if title and heading and heading != title else (heading or title)
    return f"{head}\n{text}" if head else text


def missing_count(conn, model_key: str) -> int:
    """How many chunks have no vector for the model."""
    return conn.execute(
        "SELECT count(*) FROM chunks c LEFT JOIN vectors v ON v.digest = c.digest AND v.model = ?"
        " WHERE v.digest IS NULL", (model_key,)).fetchone()[0]


def missing_vectors(conn, model_key: str, limit: int | None = None) -> list:
    """(digest, embedding text) of chunks without a vector for the model, one per digest (at most
    ``limit`` of them)."""
    sql = ("SELECT c.digest, c.title, c.heading, c.text FROM chunks c"
           " LEFT JOIN vectors v ON v.digest = c.digest AND v.model = ?"
           " WHERE v.digest IS NULL GROUP BY c.digest")
    params: tuple = (model_key,)
    if limit is not None:
        sql += " LIMIT ?"
        params += (limit,)
    return [(d, embedding_text(t, h, x)) for d, t, h, x in conn.execute(sql, params).fetchall()]


def store_vectors(conn, model_key: str, digests: list, mat) -> None:
    """Store one embedded batch (row ``i`` of ``mat`` is the vector of ``digests[i]``) and bump the
    index's ``vector_generation`` (warm matrices reload on it), in one committed transaction."""
    with conn:
        conn.executemany("INSERT OR REPLACE INTO vectors(digest, model, dim, vec) VALUES (?,?,?,?)",
                         [(d, model_key, mat.shape[1], mat[i].tobytes()) for i, d in enumerate(digests)])
        conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('vector_generation',"
                     " CAST(COALESCE((SELECT value FROM meta WHERE key='vector_generation'), 0) + 1 AS TEXT))")


def update_vectors(db, embedder: Embedder, batch_size: int = 16, progress=None) -> dict:
    """Embed every chunk that lacks a vector for ``embedder``'s model. Commits per batch, so an
    interrupted run keeps what it did."""
    started = time.monotonic()
    todo = missing_vectors(db.conn, embedder.spec.key)
    todo.sort(key=lambda item: len(item[1]))   # similar lengths share a batch (see Embedder.embed)
    done = 0
    step = max(batch_size, 256)                 # commit (and report progress) every few batches
    for i in range(0, len(todo), step):
        part = todo[i:i + step]
        mat = embedder.embed([t for _, t in part], batch_size=batch_size)
        store_vectors(db.conn, embedder.spec.key, [d for d, _ in part], mat)
        done += len(part)
        if progress:
            progress(done, len(todo))
    return {"embedded": done, "model": embedder.spec.key, "elapsed_ms": round((time.monotonic() - started) * 1000, 1)}


def tty_progress(label: str):
    """A progress bar on stderr when it is a terminal; None otherwise."""
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        width = 30
        filled = int(width * done / max(total, 1))
        sys.stderr.write(f"\r{label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        if done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return show
