"""Index health for ``memory-search.py status``: counts, probes, what changed since the last index,
the embedding model, and the recommended next command. Metadata only, never memory text."""

from __future__ import annotations

import os
import sqlite3

from .errors import CodeMemoryError
from .index import IndexCorrupted, discover_all, fts5_available, known_documents, open_index, plan_changes


def probe_sqlite() -> bool:
    try:
        sqlite3.connect(":memory:").execute("SELECT 1").fetchone()
        return True
    except sqlite3.Error:
        return False


def index_status(cfg) -> dict:
    from .embed import missing_count, quick_check, recent_failure, spec_from_config
    from .search import index_sources

    paths = cfg.paths
    sources = index_sources(cfg)
    out = {"root": cfg.root, "root_exists": os.path.isdir(cfg.root), "index_path": paths.index_db,
           "probes": {"sqliteOk": probe_sqlite(), "ftsOk": fts5_available(),
                      "sqlite_version": sqlite3.sqlite_version}}
    spec = spec_from_config(cfg.get("embedding", {}))
    reason = None
    if not cfg.get_path("embedding.enabled", True):
        reason = "disabled (embedding.enabled = false)"
    else:
        reason = quick_check(spec) or recent_failure(paths.index_dir, spec)
    # "ready" needs evidence (vectors of this model in the index); otherwise "not verified"
    out["embedding"] = {"model": spec.key, "state": "unavailable" if reason else "not verified",
                        **({"reason": reason} if reason else {})}
    if not os.path.exists(paths.index_db):
        out["index"] = {"exists": False}
        out["actions"] = {"recommended": "memory-search.py index", "reason": "the index has not been built yet"}
        return out
    try:
        db = open_index(paths.index_db, create=False, readonly=True)
    except IndexCorrupted as exc:
        out["index"] = {"exists": True, "usable": False, "problem": str(exc)[:120]}
        out["actions"] = {"recommended": "memory-search.py index --full",
                          "reason": "the index is corrupted or incompatible (searches rebuild it automatically)"}
        return out
    except (sqlite3.Error, OSError) as exc:
        raise CodeMemoryError("MEMORY_STATUS_FAILED", f"cannot read the index ({type(exc).__name__})") from None
    try:
        counts = db.counts()
        entries, _skipped = discover_all(sources)
        plan = plan_changes(entries, known_documents(db))
        dirty = [e.rel_path for e in plan.new] + [e.rel_path for e, _, _ in plan.touched]
        deleted = [rel for _, rel in plan.deleted]
        out["index"] = {
            "exists": True, "usable": True, "fts5": db.fts, "segmenter": db.segmenter_name,
            "indexed_at": db.meta("indexed_at"), "generation": int(db.meta("generation", "0")),
            "migrations": [r[0] for r in db.conn.execute("SELECT name FROM migrations ORDER BY name")],
            "size_bytes": os.path.getsize(paths.index_db), **counts,
        }
        out["dirty"] = {"files": dirty[:50], "deleted": deleted[:50], "count": len(dirty) + len(deleted)}
        missing = 0
        if reason is None and counts["vectors"].get(spec.key):
            out["embedding"]["state"] = "ready"
        if reason is None:
            missing = missing_count(db.conn, spec.key)
            out["embedding"]["chunks_without_vector"] = missing
        if dirty or deleted:
            out["actions"] = {"recommended": "memory-search.py index",
                              "reason": f"{len(dirty) + len(deleted)} file(s) changed since the last index"}
        elif missing:
            out["actions"] = {"recommended": "memory-search.py index", "reason": f"{missing} chunk(s) have no vector"}
        else:
            out["actions"] = {"recommended": None, "reason": "the index is up to date"}
    finally:
        db.close()
    return out
