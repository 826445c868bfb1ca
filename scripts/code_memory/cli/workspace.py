"""``code-memory remember`` and ``code-memory workspace …``: workspace memory from the command line.

  remember TEXT --type decision|event|summary [--workspace ID] [--reason R] [--followup F]
           [--handling H] [--note N] [--at "YYYY-MM-DD HH:MM"] [--dry-run]
  workspace list | add DIR | remove ID|DIR
  workspace status   [--workspace ID | --all]
  workspace index    [--workspace ID | --all] [--full] [--no-vectors] [--require-fts]
  workspace validate [--workspace ID | --all] [--fix]
  workspace compact  [--workspace ID] [--older-than DAYS] [--apply]      (a dry run without --apply)

Without --workspace the registered workspace holding the current directory is used.
"""

from __future__ import annotations

import datetime as dt
import json
import os

from ..config import load_config, user_config_path
from ..errors import CodeMemoryError
from .common import add_common


def _context(args):
    from ..workspace.registry import registry_from_config

    cfg = load_config(root_override=args.root)
    return cfg, registry_from_config(cfg)


def _log_path(cfg) -> str:
    return os.path.join(cfg.paths.logs, "workspace.log")


def _selected(args, registry, default_all: bool = False) -> list:
    ident, all_ = getattr(args, "workspace", None), getattr(args, "all", False)
    if ident and all_:
        raise CodeMemoryError("INVALID_ARGUMENT", "give --workspace or --all, not both")
    if default_all and not ident and not all_ and registry.containing(os.getcwd()) is None:
        all_ = True
    return registry.select(ident, all_, os.getcwd())


# ------------------------------------------------------------------------------------ remember

def _when(text: str | None) -> dt.datetime:
    if not text:
        return dt.datetime.now()
    for fmt in ("%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M"):
        try:
            return dt.datetime.strptime(text, fmt)
        except ValueError:
            continue
    raise CodeMemoryError("INVALID_ARGUMENT", f"--at must look like 'YYYY-MM-DD HH:MM', got {text!r}")


def cmd_remember(args) -> dict:
    from ..search.access import resolve_scope
    from ..workspace.store import remember

    cfg, registry = _context(args)
    # another workspace than the caller's own: a y on the user's terminal, never from inside Claude Code
    ws = resolve_scope(cfg, workspace=args.workspace, cwd=os.getcwd()).workspace
    if ws is None:  # remember has no --all
        hint = ("pass --workspace ID (remember writes to one workspace; you confirm it on your terminal); "
                "`code-memory workspace list` shows them"
                if registry.workspaces else
                "no workspace is registered yet: `code-memory workspace add DIR --create-memory-dir` registers one")
        raise CodeMemoryError("MEMORY_WORKSPACE_NOT_FOUND", "the current directory is not inside a registered "
                              "workspace", hint=hint)
    values = {"text": " ".join(args.text), "reason": args.reason, "followup": args.followup,
              "handling": args.handling, "note": args.note}
    return remember(ws, args.type, values, _when(args.at), dry_run=args.dry_run, log_path=_log_path(cfg))


# ------------------------------------------------------------------------------------ registry

def cmd_list(args) -> dict:
    cfg, registry = _context(args)
    return {"id_strategy": registry.strategy, "workspaces": [ws.describe() for ws in registry.workspaces],
            "conflicts": registry.conflicts, "current": getattr(registry.containing(os.getcwd()), "id", None)}


def _edit_user_config(args, change) -> tuple:
    """Apply ``change(paths_list) -> paths_list`` to ``workspaces.paths`` of the user config file
    (read under a lock, written atomically; a malformed file is refused, never overwritten)."""
    from ..fsutil import atomic_write_text, file_lock, read_text

    path = user_config_path(args.root)
    with file_lock(os.path.join(os.path.dirname(path), ".config.json.lock")):
        raw = read_text(path)
        try:
            data = json.loads(raw) if raw and raw.strip() else {}
        except ValueError:
            raise CodeMemoryError("CONFIG_INVALID", f"{path} is not valid JSON; not touching it",
                                  hint="fix the file, then retry") from None
        if not isinstance(data, dict):
            raise CodeMemoryError("CONFIG_INVALID", f"{path} must hold a JSON object")
        section = data.setdefault("workspaces", {})
        if not isinstance(section, dict):
            raise CodeMemoryError("CONFIG_INVALID", f"{path}: workspaces must be an object")
        paths = section.get("paths") or []
        if not isinstance(paths, list):
            raise CodeMemoryError("CONFIG_INVALID", f"{path}: workspaces.paths must be a list")
        section["paths"] = change(list(paths))
        atomic_write_text(path, json.dumps(data, ensure_ascii=False, indent=2) + "\n", mode=0o600)
    return path, section["paths"]


def cmd_add(args) -> dict:
    from ..workspace.registry import Registry, workspace_id

    root = os.path.realpath(os.path.expanduser(args.directory))
    if not os.path.isdir(root):
        raise CodeMemoryError("MEMORY_WORKSPACE_NOT_FOUND", f"{args.directory} is not a directory")
    cfg, registry = _context(args)
    ws_id = workspace_id(root, registry.strategy)
    clash = [ws.root for ws in registry.workspaces if ws.id == ws_id and ws.root != root]
    if clash:
        raise CodeMemoryError("INVALID_ARGUMENT", f"workspace id {ws_id!r} is already taken by {clash[0]}",
                              hint="set workspaces.id_strategy to hash (ids from the real path)")
    path, paths = _edit_user_config(args, lambda ps: ps if root in [os.path.realpath(os.path.expanduser(p))
                                                                     for p in ps] else ps + [root])
    if args.create_memory_dir:
        os.makedirs(os.path.join(root, "memory"), exist_ok=True)
    return {"id": ws_id, "root": root, "config": path, "registered": len(Registry(paths, registry.strategy).workspaces)}


def cmd_remove(args) -> dict:
    cfg, registry = _context(args)
    ws = registry.get(args.workspace)
    path, paths = _edit_user_config(
        args, lambda ps: [p for p in ps if os.path.realpath(os.path.expanduser(p)) != ws.root])
    out = {"id": ws.id, "root": ws.root, "config": path, "remaining": len(paths)}
    _cfg, after = _context(args)
    if any(w.root == ws.root for w in after.workspaces):
        out["note"] = "still registered by another configuration layer (environment or project config)"
    return out


# ------------------------------------------------------------------------------------ status / index

def cmd_status(args) -> dict:
    from ..search.status import workspace_status as status

    cfg, registry = _context(args)
    return status(cfg.paths.index_db, registry, _selected(args, registry, default_all=True))


def cmd_index(args) -> dict:
    from ..search.build import embed_missing
    from ..search.engine import ensure_index, index_sources, options_from_config
    from ..search.freshness import refresh
    from ..search.index import Source, fts5_available

    cfg, registry = _context(args)
    selected = _selected(args, registry)
    if args.require_fts and not fts5_available():
        raise CodeMemoryError("MEMORY_FTS_DISABLED", "this Python's SQLite has no FTS5",
                              hint="install a Python whose sqlite3 has FTS5, or drop --require-fts (LIKE search)")
    if args.no_vectors:
        cfg["embedding"]["enabled"] = False
    opts = options_from_config(cfg)
    try:
        every_source = index_sources(cfg)
        handle = ensure_index(cfg.paths.index_db, every_source, opts, refresh_now=False)
        db = handle.db
        # --all refreshes everything (memory root too, and drops unregistered workspaces);
        # --workspace refreshes that workspace only and leaves the rest of the index alone
        sources = every_source if args.all else [Source.of_workspace(ws) for ws in selected]
        try:
            stats = refresh(db, sources, full=args.full, window_lines=opts.window_lines,
                            max_file_bytes=opts.max_file_bytes, only_these=not args.all)
        except Exception:
            db.close()
            raise
    except CodeMemoryError:
        raise
    except Exception as exc:
        raise CodeMemoryError("MEMORY_INDEX_FAILED", f"indexing failed ({type(exc).__name__})",
                              hint="run with CODE_MEMORY_DEBUG=1 for details") from None
    out = {"index_path": db.path, "workspaces": [ws.id for ws in selected], "fts5": db.fts, **handle.report,
           "refresh": {k: v for k, v in stats.items() if v or k == "elapsed_ms"}}
    try:
        embed_missing(cfg, db, out)
        out["counts"] = db.counts()
    finally:
        db.close()
    return out


# ------------------------------------------------------------------------------------ validate / compact

def cmd_validate(args) -> dict:
    from ..workspace.validate import validate

    cfg, registry = _context(args)
    results = [validate(ws, fix=args.fix) for ws in _selected(args, registry, default_all=True)]
    registry_problems = [{"workspace": ws_id, "code": "WS_DUPLICATE_ID", "severity": "error", "roots": roots,
                          "message": f"{len(roots)} registered directories share this id; none of them is indexed"}
                         for ws_id, roots in registry.conflicts.items()]
    problems = [p for r in results for p in r["problems"]] + registry_problems
    return {"valid": not any(p["severity"] == "error" for p in problems), "workspaces": results,
            "registry_problems": registry_problems, "problem_count": len(problems)}


def cmd_compact(args) -> dict:
    from ..workspace.store import compact

    cfg, registry = _context(args)
    [ws] = registry.select(args.workspace, False, os.getcwd())
    days = args.older_than if args.older_than is not None else int(cfg.get_path("workspaces.compact_after_days"))
    return compact(ws, days, dt.date.today(), apply=args.apply, log_path=_log_path(cfg))


# ------------------------------------------------------------------------------------ parsers

def _target(p, allow_all: bool = True) -> None:
    p.add_argument("--workspace", help="registered workspace id (default: the one holding the current directory)")
    if allow_all:
        p.add_argument("--all", action="store_true", help="every registered workspace")


def register(sub) -> None:
    p = sub.add_parser("remember", help="append a decision/event/summary to a workspace's memory/YYYY-MM-DD.md")
    p.add_argument("text", nargs="+", help="what to remember (结论 / 发生 / 今日完成)")
    p.add_argument("--type", choices=("decision", "event", "summary"), default="event",
                   help="entry template (default event)")
    p.add_argument("--reason", help="decision: 原因")
    p.add_argument("--followup", help="decision: 后续; summary: 明日计划")
    p.add_argument("--handling", help="event: 处理")
    p.add_argument("--note", help="event: 备注")
    p.add_argument("--at", help="entry time 'YYYY-MM-DD HH:MM' (default now, local time)")
    p.add_argument("--dry-run", action="store_true", help="show the planned write, change nothing")
    _target(p, allow_all=False)
    add_common(p)
    p.set_defaults(handler=cmd_remember)

    ws = sub.add_parser("workspace", help="workspace memory: list, add, remove, status, index, validate, compact")
    wsub = ws.add_subparsers(dest="workspace_command", metavar="WORKSPACE_COMMAND")
    wsub.required = True

    p = wsub.add_parser("list", help="registered workspaces and their ids")
    add_common(p)
    p.set_defaults(handler=cmd_list)

    p = wsub.add_parser("add", help="register a directory as a workspace (edits the user config)")
    p.add_argument("directory", help="the workspace's directory")
    p.add_argument("--create-memory-dir", action="store_true", help="also create DIR/memory/")
    add_common(p)
    p.set_defaults(handler=cmd_add)

    p = wsub.add_parser("remove", help="unregister a workspace (its files stay)")
    p.add_argument("workspace", help="workspace id or directory")
    add_common(p)
    p.set_defaults(handler=cmd_remove)

    p = wsub.add_parser("status", help="index path, counts, dirty files, probes, the recommended next command")
    _target(p)
    add_common(p)
    p.set_defaults(handler=cmd_status)

    p = wsub.add_parser("index", help="index a workspace's memory files (incremental; --full re-reads)")
    _target(p)
    p.add_argument("--full", action="store_true", help="re-read every file of the workspace(s)")
    p.add_argument("--no-vectors", action="store_true", help="skip embeddings")
    p.add_argument("--require-fts", action="store_true", help="fail with MEMORY_FTS_DISABLED instead of using LIKE")
    add_common(p)
    p.set_defaults(handler=cmd_index)

    p = wsub.add_parser("validate", help="check headers, entry formats and paths of workspace memory files")
    _target(p)
    p.add_argument("--fix", action="store_true", help="create missing memory/ directories")
    add_common(p)
    p.set_defaults(handler=cmd_validate)

    p = wsub.add_parser("compact", help="merge old day files into memory/MEMORY.md (dry run unless --apply)")
    _target(p, allow_all=False)
    p.add_argument("--older-than", type=int, help="days (default workspaces.compact_after_days)")
    p.add_argument("--apply", action="store_true", help="write MEMORY.md and remove the merged day files")
    add_common(p)
    p.set_defaults(handler=cmd_compact)
