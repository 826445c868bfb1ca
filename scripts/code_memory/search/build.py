"""Building the index on purpose (``code-memory index``, ``workspace index``, the weekly job): a
full or incremental refresh of every source, then the embeddings of chunks that have none yet.
(A search refreshes the index itself, without embedding: :func:`.engine.search_memory`.)"""

from __future__ import annotations

import time

from ..config import setting
from ..errors import CodeMemoryError


def embed_missing(cfg, db, out: dict) -> None:
    """Embed the chunks that have no vector yet (``out["vectors"]``), or note why not
    (``out["degraded"]``)."""
    from .embed import (
        EmbeddingUnavailable,
        forget_failure,
        load_model,
        remember_failure,
        spec_from_config,
        tty_progress,
        update_vectors,
    )
    from .index import gc_vectors

    ecfg = cfg.get("embedding", {})
    if not setting(ecfg, "embedding.enabled"):
        return
    spec = spec_from_config(ecfg)
    try:
        embedder = load_model(spec, allow_download=True, endpoint=ecfg.get("endpoint"))
        forget_failure(cfg.paths.index_dir, spec)
        out["vectors"] = update_vectors(db, embedder, setting(ecfg, "embedding.batch_size"), tty_progress("embedding"))
        out["vectors"]["removed_orphans"] = gc_vectors(db)
        db.conn.commit()
    except EmbeddingUnavailable as exc:
        remember_failure(cfg.paths.index_dir, spec, str(exc))
        out["degraded"] = {"vector": str(exc)}


def build_index(cfg, full: bool = False) -> dict:
    """Refresh (``full``: re-read every file) the index of the memory root and every registered
    workspace, then embed what has no vector. Returns what was done and the counts."""
    from .engine import ensure_index, index_sources, options_from_config

    started = time.monotonic()
    try:
        handle = ensure_index(cfg.paths.index_db, index_sources(cfg), options_from_config(cfg), full=full,
                              upgrade=True)
    except CodeMemoryError:
        raise
    except Exception as exc:
        raise CodeMemoryError("MEMORY_INDEX_FAILED", f"indexing failed ({type(exc).__name__}: {str(exc)[:120]})",
                              hint="run with CODE_MEMORY_DEBUG=1 for details") from None
    db = handle.db
    out = {"root": cfg.root, "index_path": db.path, "segmenter": db.segmenter_name, "fts5": db.fts, **handle.report}
    try:
        embed_missing(cfg, db, out)
        out["counts"] = db.counts()
    finally:
        db.close()
    out["elapsed_ms"] = round((time.monotonic() - started) * 1000, 1)
    return out
