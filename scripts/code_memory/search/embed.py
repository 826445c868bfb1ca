"""Dense embeddings with fastembed (imported lazily; optional).

A :class:`ModelSpec` names the model: a fastembed model (default ``BAAI/bge-small-zh-v1.5``) or a
local ONNX directory (``embedding.model_path``) — loaded with ``specific_model_path``, no network.
A local directory of a model fastembed knows (a copy of the hub repo ``Qdrant/bge-small-zh-v1.5``,
say) needs nothing else; any other model is registered with ``TextEmbedding.add_custom_model``
from name, dim (else ``hidden_size`` of its config.json), pooling and normalize.

Downloads (``code-memory model fetch``, ``code-memory index``, the background retry) go to a
persistent cache (``$FASTEMBED_CACHE_PATH``, else ``~/.cache/code-memory/fastembed``; fastembed's
own ``/tmp`` default is still read) through ``embedding.endpoint`` or ``$HF_ENDPOINT`` — a hub
mirror — when set. Searches never download.

A model that cannot be loaded is remembered (:func:`failure_record`): searches answer BM25 at once
with the reason, and at most one background retry per :data:`RETRY_SECONDS`
(:func:`start_background_fetch`, a detached ``python -m code_memory.search.embed``) tries again —
downloading if needed — and forgets the failure when it succeeds.

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

from ..config import setting

MAX_EMBED_CHARS = 2000
RETRY_SECONDS = 3600.0          # a remembered failure is retried (in the background) at most this often
ONNX_NAMES = ("model.onnx", "model_optimized.onnx")


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
        name=embedding_cfg.get("model") or setting(None, "embedding.model"),
        path=os.path.abspath(os.path.expanduser(path)) if path else None,
        dim=embedding_cfg.get("dim"),
        pooling=(embedding_cfg.get("pooling") or setting(None, "embedding.pooling")).lower(),
        normalize=setting(embedding_cfg, "embedding.normalize"),
    )


def fastembed_installed() -> bool:
    try:
        return importlib.util.find_spec("fastembed") is not None and importlib.util.find_spec("numpy") is not None
    except (ImportError, ValueError):
        return False


def onnx_file(directory: str) -> str | None:
    """The ONNX file of a local model directory: ``model.onnx``, ``model_optimized.onnx`` (fastembed's
    own repos), else the only ``*.onnx`` (also under ``onnx/``); None when there is none."""
    for name in ONNX_NAMES:
        if os.path.isfile(os.path.join(directory, name)):
            return name
    found = []
    for sub in ("", "onnx"):
        try:
            found += [os.path.join(sub, f) if sub else f for f in sorted(os.listdir(os.path.join(directory, sub)))
                      if f.endswith(".onnx")]
        except OSError:
            continue
    return found[0] if len(found) == 1 else None


def _config_dim(directory: str) -> int | None:
    try:
        with open(os.path.join(directory, "config.json"), encoding="utf-8") as fh:
            value = json.load(fh).get("hidden_size")
    except (OSError, ValueError, AttributeError):
        return None
    return int(value) if isinstance(value, int) and value > 0 else None


def quick_check(spec: ModelSpec) -> str | None:
    """A reason the model certainly cannot load, found without importing fastembed; else None."""
    if not fastembed_installed():
        return "fastembed is not installed (pip install 'code-memory[vector]')"
    if spec.path:
        if not os.path.isdir(spec.path):
            return f"embedding.model_path {spec.path} is not a directory"
        if not onnx_file(spec.path):
            return f"no model.onnx (or model_optimized.onnx) in embedding.model_path {spec.path}"
        if not os.path.isfile(os.path.join(spec.path, "tokenizer.json")):
            return f"no tokenizer.json in embedding.model_path {spec.path}"
    return None


def cache_dirs(env=None) -> list:
    """Where fastembed models are kept: ``$FASTEMBED_CACHE_PATH``, else code-memory's persistent
    cache (downloads go here), then fastembed's temp-dir default (read only: older installs)."""
    env = os.environ if env is None else env
    if env.get("FASTEMBED_CACHE_PATH"):
        return [env["FASTEMBED_CACHE_PATH"]]
    base = env.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    import tempfile
    return [os.path.join(base, "code-memory", "fastembed"), os.path.join(tempfile.gettempdir(), "fastembed_cache")]


def model_cached(spec: ModelSpec, env=None) -> bool:
    """Whether a hub model may be in a cache (a directory named after it exists): False means it
    certainly is not, so loading it would only fail — checked without importing fastembed."""
    if spec.path:
        return True
    short = spec.name.rsplit("/", 1)[-1].lower()
    for directory in cache_dirs(env):
        try:
            if any(short in name.lower() for name in os.listdir(directory)):
                return True
        except OSError:
            continue
    return False


def hub_hosts(endpoint: str | None, env=None) -> tuple:
    """(host, port) pairs a download needs: the mirror (``embedding.endpoint``, else
    ``$HF_ENDPOINT``), else the hub and fastembed's storage."""
    env = os.environ if env is None else env
    url = endpoint or env.get("HF_ENDPOINT")
    if url:
        from urllib.parse import urlsplit
        parts = urlsplit(url)
        if parts.hostname:
            return ((parts.hostname, parts.port or (80 if parts.scheme == "http" else 443)),)
    return tuple((host, 443) for host in HUB_HOSTS)


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


def hub_reachable(hosts: tuple, timeout: float = 3.0) -> bool:
    """Can a download source (``hub_hosts``) be reached? (fastembed itself retries for ~40 s offline.)"""
    import socket
    import threading

    result = []

    def probe():
        for host, port in hosts:
            try:
                with socket.create_connection((host, port), timeout=timeout):
                    result.append(True)
                    return
            except OSError:
                continue

    thread = threading.Thread(target=probe, daemon=True)
    thread.start()
    thread.join(timeout * len(hosts) + 1)
    return bool(result)


UNREACHABLE_HELP = ("set embedding.endpoint (or HF_ENDPOINT) to a hub mirror such as https://hf-mirror.com, or "
                    "embedding.model_path to a local model directory; then run: code-memory model fetch")


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


def _from_cache(text_embedding, spec: ModelSpec):
    """The hub model from any cache directory, without network; raises when none has it."""
    last = None
    for directory in cache_dirs():
        if not os.path.isdir(directory):
            continue
        try:
            return _quietly(lambda d=directory: text_embedding(model_name=spec.name, cache_dir=d, local_files_only=True))
        except Exception as exc:  # not in this cache
            last = exc
    raise last or EmbeddingUnavailable(f"model {spec.name} is not downloaded yet")


def load_model(spec: ModelSpec, allow_download: bool = False, endpoint: str | None = None) -> Embedder:
    """Load the model (once per process). Raises EmbeddingUnavailable with a reason.

    ``allow_download``: fetch a hub model missing from the cache into :func:`cache_dirs`'s first
    directory, through ``endpoint`` (a hub mirror; else ``$HF_ENDPOINT``, else the hub)."""
    if spec.key in _LOADED:
        return _LOADED[spec.key]
    reason = quick_check(spec)
    if reason:
        raise EmbeddingUnavailable(reason)
    if allow_download and endpoint:
        os.environ["HF_ENDPOINT"] = endpoint.rstrip("/")   # read by huggingface_hub when it is imported
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
                dim = spec.dim or _config_dim(spec.path)
                if not dim:
                    raise EmbeddingUnavailable("embedding.dim is required with embedding.model_path "
                                               "(its config.json has no hidden_size)")
                TextEmbedding.add_custom_model(model=spec.name, pooling=pooling, normalization=spec.normalize,
                                               sources=ModelSource(hf=spec.name), dim=int(dim),
                                               model_file=onnx_file(spec.path))
            model = TextEmbedding(model_name=spec.name, specific_model_path=spec.path)
        else:
            try:
                model = _from_cache(TextEmbedding, spec)
            except Exception:
                if not allow_download:
                    raise
                if str(os.environ.get("HF_HUB_OFFLINE", "")).lower() in ("1", "true", "yes", "on"):
                    raise EmbeddingUnavailable(f"model {spec.name} is not downloaded and HF_HUB_OFFLINE is set; "
                                               f"{UNREACHABLE_HELP}") from None
                hosts = hub_hosts(endpoint)
                if not hub_reachable(hosts):
                    where = ", ".join(h for h, _p in hosts)
                    raise EmbeddingUnavailable(f"model {spec.name} is not downloaded and {where} cannot be "
                                               f"reached; {UNREACHABLE_HELP}") from None
                os.makedirs(cache_dirs()[0], exist_ok=True)
                model = TextEmbedding(model_name=spec.name, cache_dir=cache_dirs()[0])
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
# remembering a model that cannot load: searches answer BM25 at once, one background retry an hour

def _failure_path(index_dir: str, spec: ModelSpec) -> str:
    return os.path.join(index_dir, "embedding-unavailable-" + hashlib.sha256(spec.key.encode()).hexdigest()[:10] + ".json")


def failure_record(index_dir: str, spec: ModelSpec) -> dict | None:
    """``{"reason", "at", "retry_at"?}`` of the remembered failure (no expiry), or None."""
    try:
        with open(_failure_path(index_dir, spec), encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("reason") else None


def retry_due(record: dict, now: float | None = None) -> bool:
    """The last attempt (or background retry) is older than :data:`RETRY_SECONDS`."""
    now = time.time() if now is None else now
    last = max(float(record.get("at") or 0), float(record.get("retry_at") or 0))
    return now - last >= RETRY_SECONDS


def start_background_fetch(index_dir: str, spec: ModelSpec, endpoint: str | None = None) -> bool:
    """Start one detached retry (load, downloading if needed) and note it in the failure record, so
    the searches of the next hour do not start another. False when it could not be started."""
    from ..fsutil import atomic_write_json

    record = failure_record(index_dir, spec) or {"model": spec.key, "reason": "not loaded yet", "at": 0}
    record["retry_at"] = time.time()
    from .client import spawn

    try:
        atomic_write_json(_failure_path(index_dir, spec), record)
        spawn([sys.executable, "-m", "code_memory.search.embed", "--index-dir", index_dir,
               "--spec", spec.to_json(), *(["--endpoint", endpoint] if endpoint else [])], drop_env=())
        return True
    except OSError:
        return False


def fetch(index_dir: str, spec: ModelSpec, endpoint: str | None = None) -> dict:
    """Load the model, downloading it if needed; remember the outcome for the searches. One fetch
    at a time per index (an ``flock``): a second one waits for the first and then finds the model."""
    import fcntl

    os.makedirs(index_dir, exist_ok=True)
    started = time.monotonic()
    with open(os.path.join(index_dir, "embedding-fetch.lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            embedder = load_model(spec, allow_download=True, endpoint=endpoint)
        except EmbeddingUnavailable as exc:
            remember_failure(index_dir, spec, str(exc))
            raise
        forget_failure(index_dir, spec)
    return {"model": embedder.spec.key, "dim": embedder.spec.dim, "seconds": round(time.monotonic() - started, 2)}


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


def main(argv=None) -> int:
    """The background retry: ``python -m code_memory.search.embed --index-dir D --spec JSON``."""
    import argparse

    ap = argparse.ArgumentParser(prog="code_memory.search.embed")
    ap.add_argument("--index-dir", required=True)
    ap.add_argument("--spec", required=True)
    ap.add_argument("--endpoint")
    args = ap.parse_args(argv)
    try:
        fetch(args.index_dir, ModelSpec.from_json(args.spec), args.endpoint)
    except EmbeddingUnavailable:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
