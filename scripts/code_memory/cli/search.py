"""``memory-search.py`` (and ``code-memory search|index|get|status``): the user-facing search edge.

  memory-search.py "query" [--source memory,workspace,kv,memtool] [--mode bm25|vector|hybrid|auto]
                   [--top-k N] [--project NAME] [--scope project|all --force] [--root DIR]
                   [--format json|text] [--no-refresh]
  memory-search.py --batch FILE|-        one JSON {"id","query"} per line → one JSON {"id","results"} per line
  memory-search.py index [--full] [--no-vectors]
  memory-search.py get --path P [--from L] [--lines N]  |  get --id kv:<key> | memtool:<id> | <path>
  memory-search.py status
"""

from __future__ import annotations

import os
import sys

from ..config import load_config
from ..errors import CodeMemoryError
from .common import add_common, dumps, hoist_globals, script_main

SUBCOMMANDS = ("search", "index", "get", "status")


def _config(args):
    cfg = load_config(root_override=args.root, project_dir=os.getcwd())
    if getattr(args, "no_vectors", False):
        cfg["embedding"]["enabled"] = False
    return cfg


def _scope(args, cfg):
    """What this command may read (search.access: the one policy of every door). Widening beyond
    the caller's home scope is refused inside Claude Code and needs a y on the terminal outside."""
    from ..search.access import resolve_scope

    if args.scope == "all" and not args.force:
        raise CodeMemoryError("INVALID_ARGUMENT", "--scope all searches every project's and workspace's memory",
                              hint="add --force to confirm (read-only, CLI only; it also asks on your terminal)")
    return resolve_scope(cfg, project=getattr(args, "project", None), workspace=getattr(args, "workspace", None),
                         scope=args.scope, cwd=os.getcwd())


# ---------------------------------------------------------------------------------------------
# handlers

def cmd_search(args) -> dict:
    if args.batch:
        return cmd_batch(args)
    query = " ".join(args.query) if args.query else ""
    if not query.strip():
        raise CodeMemoryError("INVALID_ARGUMENT", "the query is empty",
                              hint='`memory-search.py "what to look for"` (or --batch FILE)')
    cfg = _config(args)
    scope = _scope(args, cfg)
    answer = None
    if not scope.wide and not args.no_refresh and cfg.get_path("search.server"):
        answer = _warm_search(cfg, args, query, scope)
    if answer is None:
        from ..search.unified import search_all

        answer = search_all(cfg, query, memtool=_memtool(cfg, scope), sources=args.source, mode=args.mode,
                            top_k=args.top_k, scope="all" if scope.wide else "project", project=scope.project,
                            workspace=scope.workspace_id, refresh_index=not args.no_refresh)
    if os.environ.get("CLAUDE_CODE_SESSION_ID"):      # only Claude's Bash tool has one: no import otherwise
        from ..search.feedback_boost import result_ids

        _record_refs(cfg, result_ids(answer.get("results", [])), "search")
    return answer


def _warm_search(cfg, args, query: str, scope) -> dict | None:
    """The answer of the warm search server (search/client.py), or None when it does not answer
    in ``search.server_timeout_seconds`` — then the search runs here, and the server starts for
    the next one. The request names everything this process resolved (its project config
    included), so both give the same answer; the server reads memtool within the project's own
    scope, as :func:`_memtool` does."""
    from ..memtool.location import resolve_db
    from ..search.client import call

    request = {"query": query, "mode": args.mode or cfg.get_path("search.default_mode"),
               "top_k": cfg.get_path("search.top_k") if args.top_k is None else args.top_k, "project": scope.project,
               "workspace": scope.workspace_id, "sources": args.source, "memtool_db": resolve_db(cfg)[0],
               "snippet_chars": cfg.get_path("search.snippet_chars")}
    answer = call(cfg.root, "search", request, float(cfg.get_path("search.server_timeout_seconds")))
    if answer is not None and not answer.get("ok"):
        extra = {k: v for k, v in answer.items() if k not in ("ok", "error", "message", "hint")}
        raise CodeMemoryError(answer.get("error") or "MEMORY_SEARCH_FAILED", answer.get("message") or "search failed",
                              hint=answer.get("hint"), **extra)
    return answer


def _memtool(cfg, scope=None):
    """memtool's database by the shared rule (``$MEMTOOL_DB``, config, ``<root>/memtool.db``),
    read within ``scope`` (global items and the scope's projects'; every item when it is wide)."""
    from ..memtool.location import resolve_db
    from ..search.unified import MemtoolAccess

    visible = None if scope is None or scope.wide else scope.areas
    return MemtoolAccess(resolve_db(cfg)[0], visible=visible)


def _record_refs(cfg, experience_ids: list, context: str) -> None:
    """Claude ran this search (or get) from its Bash tool, which sets CLAUDE_CODE_SESSION_ID: the
    experiences it was shown count as used in that session (docs/evolution.md)."""
    from ..search.feedback_boost import record_shown

    record_shown(cfg, os.environ.get("CLAUDE_CODE_SESSION_ID"), experience_ids, context)


def cmd_batch(args) -> None:
    """One process for many queries: the model (if any) is loaded once, the index opened once."""
    import json

    from ..search.engine import (
        index_sources,
        open_for_search,
        options_from_config,
        pick_backend,
        resolve_mode,
        run_query,
    )

    cfg = _config(args)
    allowed = _scope(args, cfg)
    scope = "all" if allowed.wide else "project"
    project, workspace = allowed.project, allowed.workspace_id
    opts = options_from_config(cfg)
    if args.top_k:
        opts.top_k = args.top_k
    mode = resolve_mode(args.mode, cfg)
    stream = sys.stdin if args.batch == "-" else None
    if stream is None:
        try:
            stream = open(args.batch, encoding="utf-8", errors="replace")
        except OSError as exc:
            raise CodeMemoryError("NOT_FOUND", f"cannot open the batch file ({exc.strerror})", path=args.batch) from None
    handle = open_for_search(cfg.paths.index_db, index_sources(cfg), opts, not args.no_refresh)
    vectors, used, degraded = pick_backend(cfg, mode)
    try:
        for n, line in enumerate(stream, 1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
                if not isinstance(item, dict):
                    raise ValueError
            except ValueError:
                sys.stdout.write(dumps({"id": None, "ok": False, "error": "INVALID_ARGUMENT",
                                        "message": f"line {n} is not a JSON object"}) + "\n")
                continue
            qid = item.get("id")
            try:
                q_mode = item.get("mode") or used
                if q_mode == "auto" or (q_mode != "bm25" and vectors is None):
                    q_mode = used
                if scope != "all" and (item.get("workspace", workspace) != workspace
                                       or item.get("project", project) != project):
                    raise CodeMemoryError("MEMORY_SCOPE_DENIED", "a batch line may not name another project or "
                                          "workspace", hint="run the batch with --project / --workspace")
                answer = run_query(handle.db, item.get("query", ""), q_mode, opts, scope,
                                   project, workspace, vectors, handle.segmenter)
                out = {"id": qid, "ok": True, "mode_used": answer["mode_used"], "results": answer["results"]}
                if degraded or answer.get("degraded"):
                    out["degraded"] = {**({"vector": degraded} if degraded else {}), **answer.get("degraded", {})}
            except CodeMemoryError as exc:
                out = {"id": qid, **exc.to_dict()}
            sys.stdout.write(dumps(out) + "\n")
            sys.stdout.flush()
    finally:
        handle.db.close()
        if stream is not sys.stdin:
            stream.close()
    return None


def cmd_index(args) -> dict:
    from ..search.build import build_index

    return build_index(_config(args), full=args.full)


def cmd_get(args) -> dict:
    from ..search.access import read_memory_lines
    from ..search.unified import get_by_id, kind_of

    cfg = _config(args)
    if args.id and kind_of(args.id) != "file":
        return get_by_id(cfg, args.id, _memtool(cfg, _scope(args, cfg)))
    if not (args.path or args.id):
        raise CodeMemoryError("INVALID_ARGUMENT", "get needs --path P or --id ID",
                              hint="both come from a search hit (path, id)")
    answer = read_memory_lines(cfg, _scope(args, cfg), args.path or args.id, args.from_line, args.lines)
    if os.environ.get("CLAUDE_CODE_SESSION_ID"):
        from ..search.feedback_boost import ExperienceFinder

        _record_refs(cfg, ExperienceFinder(cfg.root).ids(answer["path"], answer["text"]), "get")
    return answer


def cmd_status(args) -> dict:
    """Index health, plus ``gates``: what keeps the rules gate or the avoidance gate from working
    (a config that does not load — then only that is reported —, an unusable flag directory) and
    the symlinks under the memory root that lead outside it and the text files that are not UTF-8
    (writes refuse both)."""
    from ..hooks.gate_health import problems, warned_sessions
    from ..search.status import index_status

    try:
        cfg = _config(args)
    except CodeMemoryError as exc:
        if exc.code != "CONFIG_INVALID":
            raise
        return {"ok": True, "gates": {"ok": False, "problems": problems(config_error=exc.message)},
                "config": {"ok": False, "error": exc.code, "message": exc.message}}
    from ..fsutil import non_utf8_files, symlinks_leading_outside

    answer = index_status(cfg)
    answer["server"] = _server_status(cfg)
    found = problems(cfg, os.environ)
    answer["gates"] = {"ok": not found, "problems": found, "sessions_warned": warned_sessions(cfg.root)}
    here = os.path.isdir(cfg.root)
    answer["symlinks_outside"] = symlinks_leading_outside(cfg.root) if here else []
    answer["not_utf8"] = non_utf8_files(cfg.root) if here else []    # writers leave these untouched
    return answer


def _server_status(cfg) -> dict:
    """The warm search server of this root: off by config, not running, or what it says of itself
    (pid, watched directories, index counts). Asking never starts it."""
    if not cfg.get_path("search.server"):
        return {"enabled": False}
    from ..search.client import call, socket_path

    answer = call(cfg.root, "ping", {}, 1.0, start_server=False)
    if answer is None:
        return {"enabled": True, "running": False, "socket": socket_path(cfg.root)}
    return {"enabled": True, "running": True, "socket": socket_path(cfg.root),
            **{k: answer.get(k) for k in ("pid", "version", "watcher", "stale")}}


# ---------------------------------------------------------------------------------------------
# text renderings

def render_search(result: dict) -> str:
    lines = [f"{len(result['results'])} result(s) · mode {result.get('mode_used', '-')} · scope {result.get('scope')}"
             + (f" ({result['project']})" if result.get("project") else "")]
    for k, v in (result.get("degraded") or {}).items():
        lines.append(f"  degraded {k}: {v}")
    for name, report in (result.get("stores") or {}).items():
        if not report.get("ok"):
            lines.append(f"  store {name} failed: {report.get('error')} {report.get('message')}")
    if (result.get("index") or {}).get("rebuilt"):
        lines.append(f"  index rebuilt: {result['index']['rebuilt']}")
    for n, hit in enumerate(result["results"], 1):
        lines.append("")
        if "path" in hit:
            where = f"{hit['path']}:{hit['start_line']}-{hit['end_line']}"
            ranks = f"; bm25 #{hit['ranks']['bm25'] or '-'}, vector #{hit['ranks']['vector'] or '-'}"
        else:
            where, ranks = hit["id"], f"; {hit.get('match')} words"
        lines.append(f"{n}. [{hit['source']}] {where}  {hit['heading']}  (score {hit['score']:.4f}{ranks})")
        for text_line in hit["snippet"].split("\n")[:8]:
            lines.append("   " + text_line)
    return "\n".join(lines)


def render_get(result: dict) -> str:
    start = result["from_line"]
    return "\n".join(f"{start + i:>5}  {line}" for i, line in enumerate(result["text"].split("\n"))) if result["text"] else ""


# ---------------------------------------------------------------------------------------------
# parsers

def _search_args(p) -> None:
    p.add_argument("query", nargs="*", help="what to look for")
    p.add_argument("--mode", choices=("auto", "bm25", "vector", "hybrid"),
                   help="ranking (default: search.default_mode = auto → hybrid when a model loads)")
    p.add_argument("--top-k", type=int, help="number of hits (default search.top_k = 6)")
    _isolation_args(p, "search")
    p.add_argument("--source", action="append", metavar="NAME",
                   help="only these stores: memory, workspace, kv, memtool (repeatable or comma-separated; "
                        "default all)")
    p.add_argument("--batch", metavar="FILE",
                   help='answer one JSON {"id","query"} per line of FILE (- = stdin; the memory index only)')
    p.add_argument("--no-refresh", action="store_true",
                   help="do not update the index before searching (and search in this process, not the warm server)")
    p.set_defaults(handler=cmd_search, text_renderer=render_search)


def _isolation_args(p, verb: str) -> None:
    p.add_argument("--scope", choices=("project", "all"), default="project",
                   help=f"project (default): {verb} global memory + this project + this workspace; "
                        "all: every project and workspace (read-only, needs --force and a y on your terminal, "
                        "refused inside Claude Code)")
    p.add_argument("--force", action="store_true", help="confirm --scope all")
    p.add_argument("--project", help="project name (default: detected from the current directory); another "
                                     "project asks on your terminal and is refused inside Claude Code")
    p.add_argument("--workspace", help="registered workspace id (default: the one holding the current directory); "
                                       "another one asks on your terminal and is refused inside Claude Code")


def register_subcommands(sub, names=SUBCOMMANDS) -> None:
    if "search" in names:
        p = sub.add_parser("search", help="search memory (BM25 + vectors)")
        add_common(p)
        _search_args(p)
    if "index" in names:
        p = sub.add_parser("index", help="update the search index (incremental; --full rebuilds)")
        add_common(p)
        p.add_argument("--full", action="store_true", help="re-read every file")
        p.add_argument("--no-vectors", action="store_true", help="skip embeddings")
        p.set_defaults(handler=cmd_index)
    if "get" in names:
        p = sub.add_parser("get", help="read a search hit: lines of a memory file, a kv key, a memtool item")
        add_common(p)
        p.add_argument("--path", help="a path returned by search (absolute, or relative to the root)")
        p.add_argument("--id", help="a hit's id: a path, kv:<key> or memtool:<item id>")
        p.add_argument("--from", dest="from_line", type=int, default=1, help="first line, 1-based (default 1)")
        p.add_argument("--lines", type=int, default=40, help="number of lines (default 40, at most 200)")
        _isolation_args(p, "read")
        p.set_defaults(handler=cmd_get, text_renderer=render_get)
    if "status" in names:
        p = sub.add_parser("status", help="index health, counts, model, what changed since the last index")
        add_common(p)
        p.set_defaults(handler=cmd_status)


def register(sub) -> None:
    """``code-memory search|index|get|status``."""
    register_subcommands(sub)


def main(argv=None) -> int:
    argv = hoist_globals(sys.argv[1:] if argv is None else list(argv))
    # search is the default: anything that is not a subcommand (or --help) is a query
    if not argv or (argv[0] not in SUBCOMMANDS and argv[0] not in ("-h", "--help", "--version")):
        argv = ["search", *argv]
    return script_main("memory-search.py", "Search code-memory (BM25 + vectors).", register_subcommands, argv)
