"""Index health: ``memory-search.py status`` (counts, probes, what changed since the last index,
the embedding model, the recommended next command) and ``workspace status`` (the same per
registered workspace). Metadata only, never memory text."""

from __future__ import annotations

import os
import sqlite3

from ..errors import CodeMemoryError
from ..workspace.registry import Registry
from ..workspace.validate import memory_files
from .index import IndexCorrupted, discover_all, fts5_available, known_documents, open_index, plan_changes


def probe_sqlite() -> bool:
    try:
        sqlite3.connect(":memory:").execute("SELECT 1").fetchone()
        return True
    except sqlite3.Error:
        return False


def index_status(cfg) -> dict:
    from .embed import failure_record, missing_count, quick_check, spec_from_config
    from .engine import index_sources

    paths = cfg.paths
    sources = index_sources(cfg)
    out = {"root": cfg.root, "root_exists": os.path.isdir(cfg.root), "index_path": paths.index_db,
           "probes": {"sqliteOk": probe_sqlite(), "ftsOk": fts5_available(),
                      "sqlite_version": sqlite3.sqlite_version}}
    spec = spec_from_config(cfg.get("embedding", {}))
    reason = None
    if not cfg.get_path("embedding.enabled"):
        reason = "disabled (embedding.enabled = false)"
    else:
        reason = quick_check(spec) or (failure_record(paths.index_dir, spec) or {}).get("reason")
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


def workspace_status(index_path: str, registry: Registry, selected: list) -> dict:
    """Index store counts, per-workspace files and dirty files, probes, the recommended next step."""
    from .index import Source, discover

    probes = {"sqliteOk": probe_sqlite(), "ftsOk": fts5_available()}
    ids = [ws.id for ws in selected]
    store = {"indexPath": index_path, "exists": os.path.exists(index_path), "usable": None,
             "indexedWorkspaces": 0, "indexedFiles": 0, "indexedChunks": 0}
    per_ws = {ws.id: {**ws.describe(), "files": len(memory_files(ws)), "indexedFiles": 0, "indexedChunks": 0,
                      "dirty": []} for ws in selected}
    db = None
    if store["exists"]:
        try:
            db = open_index(index_path, create=False, readonly=True)
            store["usable"] = True
        except IndexCorrupted:
            store["usable"] = False
        except (sqlite3.Error, OSError) as exc:
            raise CodeMemoryError("MEMORY_STATUS_FAILED", f"cannot read the index ({type(exc).__name__})") from None
    try:
        if db is not None:
            c = db.conn
            store["indexedWorkspaces"] = c.execute(
                "SELECT count(DISTINCT workspace_id) FROM documents WHERE workspace_id IS NOT NULL").fetchone()[0]
            for ws_id, files, chunks in c.execute(
                    "SELECT d.workspace_id, count(DISTINCT d.doc_id), count(c.chunk_id) FROM documents d"
                    " LEFT JOIN chunks c ON c.doc_id = d.doc_id WHERE d.workspace_id IS NOT NULL"
                    " GROUP BY d.workspace_id"):
                if ws_id in per_ws:
                    per_ws[ws_id]["indexedFiles"], per_ws[ws_id]["indexedChunks"] = files, chunks
                    store["indexedFiles"] += files
                    store["indexedChunks"] += chunks
            for ws in selected:
                label = Source.of_workspace(ws).label
                mine = known_documents(db, [label])
                entries, _skipped = discover(Source.of_workspace(ws))
                plan = plan_changes(entries, mine)
                per_ws[ws.id]["dirty"] = ([e.rel_path for e in plan.new] + [e.rel_path for e, _, _ in plan.touched]
                                          + [rel for _, rel in plan.deleted])
                per_ws[ws.id]["source"] = label
    except sqlite3.Error as exc:
        raise CodeMemoryError("MEMORY_STATUS_FAILED", f"cannot read the index ({type(exc).__name__})") from None
    finally:
        if db is not None:
            db.close()
    dirty_ws = [i for i in ids if per_ws[i]["dirty"]]
    dirty_files = [os.path.join(per_ws[i]["root"], rel) for i in dirty_ws for rel in per_ws[i]["dirty"]]
    missing = [i for i in ids if not per_ws[i]["exists"]]
    if not probes["sqliteOk"]:
        actions = {"recommended": None, "reason": "SQLite does not work in this Python; search is unavailable"}
    elif not store["exists"] or store["usable"] is False:
        actions = {"recommended": "code-memory workspace index --all" + (" --full" if store["exists"] else ""),
                   "reason": "the index is missing" if not store["exists"] else "the index is unusable (MEMORY_INDEX_CORRUPTED)"}
    elif missing:
        actions = {"recommended": "code-memory workspace list",
                   "reason": f"registered workspace directory missing: {', '.join(missing)}"}
    elif dirty_ws:
        target = f"--workspace {dirty_ws[0]}" if len(dirty_ws) == 1 else "--all"
        actions = {"recommended": f"code-memory workspace index {target}",
                   "reason": f"{len(dirty_files)} file(s) changed since the last index"}
    else:
        actions = {"recommended": None, "reason": "the index is up to date"}
    if not probes["ftsOk"]:
        actions["note"] = "FTS5 is unavailable: search falls back to LIKE (MEMORY_FTS_DISABLED for --require-fts)"
    return {"store": store, "workspaces": [per_ws[i] for i in ids], "conflicts": registry.conflicts,
            "dirty": {"workspaces": dirty_ws, "files": dirty_files[:100], "count": len(dirty_files)},
            "probes": probes, "actions": actions}
