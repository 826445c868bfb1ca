"""Building the index on purpose (``code-memory index``, ``workspace index``, the weekly job): a
sweep of every source (re-reading every file with ``--full``), then the embeddings of chunks that
have none yet. (A search catches the index up itself, without embedding: search/freshness.py.)"""

from __future__ import annotations

import os
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
                              upgrade=True, sweep=True)
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


def index_changes(cfg) -> dict:
    """Catch the index up with what was just written — the summarizer calls it after a session, so
    the first search after a session end finds the new note indexed (and pays no segmentation).
    A sweep only when one is due; nothing when there is no index yet (the first search builds it).
    Returns what the catch-up did."""
    from .engine import ensure_index, index_sources, options_from_config
    from .freshness import RACY_NS, catch_up, racy_dirs

    if not os.path.exists(cfg.paths.index_db):
        return {"skipped": "no index yet"}
    opts, sources = options_from_config(cfg), index_sources(cfg)
    handle = ensure_index(cfg.paths.index_db, sources, opts, busy_ms=2000)
    try:
        if racy_dirs(handle.db):
            # a directory just written is read again once its mtime is safely in the past, so the next
            # search does not have to list it (a whole sessions/ directory) to be sure
            time.sleep(RACY_NS / 1e9)
            catch_up(handle.db, sources, window_lines=opts.window_lines,
                     max_file_bytes=opts.max_file_bytes, cache_dir=opts.cache_dir, busy_ms=2000)
    finally:
        handle.db.close()
    return handle.report.get("refresh", {})
