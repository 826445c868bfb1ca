"""``status`` and ``validate`` of workspace memory: metadata only (paths, counts, line numbers,
codes) — never the text of a memory file, so both are safe to log or paste."""

from __future__ import annotations

import os
import sqlite3

from ..errors import CodeMemoryError
from ..paths import is_under
from ..status import probe_sqlite
from .entries import check_day_text, day_of
from .registry import Registry, Workspace


def _memory_files(ws: Workspace) -> list:
    try:
        return sorted(n for n in os.listdir(ws.memory_dir) if n.endswith(".md") and not n.startswith("."))
    except OSError:
        return []


def status(index_path: str, registry: Registry, selected: list) -> dict:
    """Index store counts, per-workspace files and dirty files, probes, the recommended next step."""
    from ..index import IndexCorrupted, discover, fts5_available, known_documents, open_index, plan_changes

    probes = {"sqliteOk": probe_sqlite(), "ftsOk": fts5_available()}
    ids = [ws.id for ws in selected]
    store = {"indexPath": index_path, "exists": os.path.exists(index_path), "usable": None,
             "indexedWorkspaces": 0, "indexedFiles": 0, "indexedChunks": 0}
    per_ws = {ws.id: {**ws.describe(), "files": len(_memory_files(ws)), "indexedFiles": 0, "indexedChunks": 0,
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
                label = ws.source().label
                mine = known_documents(db, [label])
                entries, _skipped = discover(ws.source())
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


def validate(ws: Workspace, fix: bool = False) -> dict:
    """Format and path problems of one workspace; ``fix`` creates a missing memory/ directory."""
    problems = []

    def add(path, line, code, message, severity="error"):
        problems.append({"path": path, "line": line, "code": code, "severity": severity, "message": message})

    fixed = []
    if not os.path.isdir(ws.root):
        add(".", None, "WS_ROOT_MISSING", "the workspace directory does not exist")
        return {"id": ws.id, "root": ws.root, "valid": False, "problems": problems, "fixed": fixed}
    if os.path.lexists(ws.memory_dir) and not is_under(ws.memory_dir, ws.root):
        add("memory", None, "WS_PATH_OUTSIDE", "memory/ leads outside the workspace (symlink)")
        return {"id": ws.id, "root": ws.root, "valid": False, "problems": problems, "fixed": fixed}
    if not os.path.isdir(ws.memory_dir):
        if fix:
            os.makedirs(ws.memory_dir, exist_ok=True)
            fixed.append("created memory/")
        else:
            add("memory", None, "WS_MEMORY_DIR_MISSING", "memory/ does not exist (validate --fix creates it)", "warning")
    for name in _memory_files(ws):
        rel = f"memory/{name}"
        path = os.path.join(ws.memory_dir, name)
        if not is_under(path, ws.memory_dir):
            add(rel, None, "WS_PATH_OUTSIDE", "the file leads outside memory/ (symlink)")
            continue
        date = day_of(name)
        if date is None and name != "MEMORY.md":
            add(rel, None, "WS_FILE_NAME", "not a day file (YYYY-MM-DD.md) or MEMORY.md", "warning")
            continue
        try:
            with open(path, "rb") as fh:
                data = fh.read()
            text = data.decode("utf-8")
            if "\x00" in text:
                raise UnicodeDecodeError("utf-8", data, 0, 1, "NUL byte")
        except UnicodeDecodeError:
            add(rel, None, "WS_NOT_UTF8", "not UTF-8 text")
            continue
        except OSError as exc:
            add(rel, None, "WS_UNREADABLE", f"cannot read ({exc.strerror})")
            continue
        if date is not None:
            for p in check_day_text(date, text):
                add(rel, p["line"], p["code"], p["message"], p["severity"])
    valid = not any(p["severity"] == "error" for p in problems)
    return {"id": ws.id, "root": ws.root, "valid": valid, "problems": problems, "fixed": fixed}
