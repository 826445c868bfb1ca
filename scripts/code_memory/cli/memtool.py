"""``memtool`` — the command line of the structured memory store (docs/stores.md § memtool).

Global options (before or after the command): ``--db`` (default: ``$MEMTOOL_DB``, else config
``memtool.db``, else ``<memory root>/memtool.db`` — the database the MCP server uses;
:mod:`code_memory.memtool.location`), ``--root`` and ``--format json|text``. A ``./memtool.db``
left in the working directory is not used unless named; every answer then carries a ``notice``
(also on stderr) saying how to use or move it. Every command prints one JSON object — ``{"ok":
true, …}`` or ``{"ok": false, "error", "message", "hint", …}`` — except ``export`` without
``--output``, which prints JSONL. Exit statuses are memtool's own (:mod:`.errors`).
``MEMTOOL_FTS=off`` makes search use LIKE even when FTS5 exists.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sqlite3
import sys
import traceback

from ..config import load_config
from ..errors import CodeMemoryError
from ..fsutil import atomic_write_text
from ..memtool import knowledge_map, metacognition, ranking, recall, schema, transfer
from ..memtool.context import EMOTIONAL_FILTERS
from ..memtool.errors import MemtoolError, db_error, param_error
from ..memtool.location import resolve_db, stray_local_db, stray_notice
from ..memtool.store import MemoryStore
from .common import add_version, emit, render_text

WRITE_COMMANDS = {"init", "put", "import"}


class ArgumentParser(argparse.ArgumentParser):
    def error(self, message):
        raise param_error(message, f"see {self.prog} --help")


def _globals(parser, suppress: bool) -> None:
    default = argparse.SUPPRESS if suppress else None
    parser.add_argument("--db", default=default,
                        help="SQLite file (default: $MEMTOOL_DB, else config memtool.db, else "
                             "<memory root>/memtool.db — the one Claude's MCP tools use)")
    parser.add_argument("--root", default=default,
                        help="memory root (default: $CODE_MEMORY_ROOT or ~/.claude/memory)")
    parser.add_argument("--format", choices=("json", "text"), default=argparse.SUPPRESS if suppress else "json",
                        help="json (default) or text for people")


TYPE_HELP = "only items of this type"
LIMIT_HELP = "at most this many items (default %(default)s)"
STALE_HELP = "leave out items whose decay marks them stale"


def _filters(p, *, key=True, step=True, tag=True):
    p.add_argument("--type", choices=schema.ITEM_TYPES, help=TYPE_HELP)
    p.add_argument("--task-id", help="only items of this task")
    if step:
        p.add_argument("--step-id", help="only items of this step of the task")
    if key:
        p.add_argument("--key", help="only items with this logical key")
    if tag:
        p.add_argument("--tag", action="append", help="repeatable or comma-separated; all must match")


def build_parser() -> ArgumentParser:
    parser = ArgumentParser(prog="memtool", description="Structured memory store (SQLite + FTS5).")
    add_version(parser)
    _globals(parser, suppress=False)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=ArgumentParser)
    sub.required = True

    def command(name, handler, help_text, renderer=None):
        p = sub.add_parser(name, help=help_text, description=help_text)
        _globals(p, suppress=True)
        p.set_defaults(handler=handler, renderer=renderer)
        return p

    command("init", cmd_init, "create or upgrade the database (WAL, FTS5 when available)")

    p = command("put", cmd_put, "create or update an item", render_put)
    p.add_argument("--id", help="update this item (must exist); version + 1")
    p.add_argument("--type", choices=schema.ITEM_TYPES, help="the item's type (required for a new item)")
    p.add_argument("--key", help="with --type (+ --task-id/--step-id): upsert on this logical key")
    p.add_argument("--task-id", help="the task the item belongs to")
    p.add_argument("--step-id", help="the step of the task")
    p.add_argument("--content", help="the content (else --file, else stdin)")
    p.add_argument("--file", help="read the content from this file ('-' = stdin)")
    p.add_argument("--tag", action="append", help="repeatable or comma-separated")
    p.add_argument("--source", help="where it came from: PRD, manual, log, stacktrace, …")
    p.add_argument("--weight", help="importance for ranking (default 1.0)")
    p.add_argument("--confidence", choices=ranking.CONFIDENCE_LEVELS, help="default medium")
    p.add_argument("--context-tag", action="append",
                   help="set the context tags instead of extracting them (repeatable)")
    p.add_argument("--emotional-weight", help="set the emotional weight (-1..1) instead of extracting it")
    p.add_argument("--no-link", action="store_true", help="do not link related items")

    p = command("get", cmd_get, "read one item by id, or the newest by logical key", render_item)
    p.add_argument("--id", help="the item's id (else the filters name a logical key)")
    _filters(p, tag=False)

    p = command("list", cmd_list, "list items (filters, sort, limit)", render_items)
    _filters(p)
    p.add_argument("--key-prefix", help="only items whose key starts with this")
    p.add_argument("--limit", type=int, default=50, help=LIMIT_HELP)
    p.add_argument("--sort-by", choices=ranking.SORT_KEYS, default="updated", help="the order (default updated)")
    p.add_argument("--exclude-stale", action="store_true", help=STALE_HELP)

    p = command("search", cmd_search, "full-text search (FTS5, LIKE fallback)", render_items)
    p.add_argument("--query", "-q", help="the words to find")
    p.add_argument("words", nargs="*", help="the query, as an alternative to --query")
    _filters(p)
    p.add_argument("--limit", type=int, default=20, help=LIMIT_HELP)
    p.add_argument("--sort-by", choices=ranking.SORT_KEYS, help="default: relevance")
    p.add_argument("--exclude-stale", action="store_true", help=STALE_HELP)

    p = command("delete", cmd_delete, "delete one item by id")
    p.add_argument("--id", required=True, help="the item to delete")

    p = command("export", cmd_export, "write every item as JSONL (stdout or --output)")
    p.add_argument("--output", "-o", help="write to this file instead of stdout")

    p = command("import", cmd_import, "upsert items by id from JSONL (file or stdin)")
    p.add_argument("--input", "-i", help="JSONL file ('-' or absent = stdin)")

    p = command("recover", cmd_recover, "salvage what SQLite can read from a damaged --db into a new file")
    p.add_argument("--output", "-o", required=True, help="the new database (must not exist)")

    p = command("recommend", cmd_recommend, "rank items for a context, with reasons", render_items)
    p.add_argument("--context", help="text describing what you are working on")
    _filters(p, key=False, step=False)
    p.add_argument("--key-prefix", help="only items whose key starts with this")
    p.add_argument("--limit", type=int, default=10, help=LIMIT_HELP)
    p.add_argument("--include-stale", action="store_true", help="also recommend stale items")

    p = command("cleanup", cmd_cleanup, "list (or with --apply delete) stale items", render_cleanup)
    p.add_argument("--type", choices=schema.ITEM_TYPES, help=TYPE_HELP)
    p.add_argument("--older-than-days", help="also items not updated for this many days")
    p.add_argument("--stale-threshold", help=f"decay at or below this is stale (default {ranking.STALE_THRESHOLD})")
    p.add_argument("--apply", action="store_true", help="really delete (default: dry run)")

    p = command("contextual-search", cmd_contextual, "search filtered by context tags / emotion", render_items)
    p.add_argument("--query", "-q", help="the words to find")
    p.add_argument("--context-tag", action="append", help="e.g. late_night, debugging (repeatable)")
    p.add_argument("--emotion", choices=EMOTIONAL_FILTERS, help="only items with this emotional tone")
    p.add_argument("--type", choices=schema.ITEM_TYPES, help=TYPE_HELP)
    p.add_argument("--limit", type=int, default=10, help=LIMIT_HELP)

    p = command("assess-knowledge", cmd_assess, "how well the store knows a topic", render_assess)
    p.add_argument("--topic", required=True, help="the topic, in words")
    p.add_argument("--type", choices=schema.ITEM_TYPES, help=TYPE_HELP)

    p = command("knowledge-map", cmd_map, "graph of related memories around a topic", render_map)
    p.add_argument("--topic", required=True, help="the topic at the centre, in words")
    p.add_argument("--depth", type=int, default=2, help="links to follow from the topic's items (default 2)")
    p.add_argument("--min-score", default="0.3", help="weakest relation drawn, 0..1 (default 0.3)")
    p.add_argument("--type", choices=schema.ITEM_TYPES, help=TYPE_HELP)
    p.add_argument("--html", help="also write a self-contained HTML rendering to this file")
    p.add_argument("--mermaid", help="also write the Mermaid graph to this file")

    p = command("review-due", cmd_review, "memories due for review (spaced repetition)", render_items)
    p.add_argument("--type", choices=schema.ITEM_TYPES, help=TYPE_HELP)
    p.add_argument("--min-importance", default="0.5", help="leave out items less important than this, 0..1 (default 0.5)")
    p.add_argument("--limit", type=int, default=10, help=LIMIT_HELP)
    return parser


# --- handlers -------------------------------------------------------------------------------

def _open(args, visible=None, owner=None) -> MemoryStore | None:
    if args.command == "recover":
        return None                    # recover never opens the damaged file as a store
    use_fts = os.environ.get("MEMTOOL_FTS", "").lower() not in ("off", "0", "false", "no")
    return MemoryStore(args.db, create=args.command in WRITE_COMMANDS, use_fts=use_fts, visible=visible,
                       owner=owner)


def cmd_init(store, args) -> dict:
    out = store.info()
    if not store.fts5:
        out["warning"] = {"error": "FTS_UNAVAILABLE", "message": "FTS5 is not available; search uses LIKE",
                          "hint": "Search still works; install a Python whose SQLite has FTS5 for ranking"}
        raise _WarnExit(out, 5)
    return out


class _WarnExit(Exception):
    """A successful answer that still exits non-zero (FTS_UNAVAILABLE on init)."""

    def __init__(self, result: dict, status: int):
        super().__init__(status)
        self.result, self.status = result, status


def _read_content(args):
    if args.content is not None and args.file is not None:
        raise param_error("Use either --content or --file, not both")
    if args.content is not None:
        return args.content
    if args.file is not None and args.file != "-":
        try:
            with open(args.file, encoding="utf-8") as fh:
                return fh.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise param_error(f"Cannot read --file {args.file}: {exc}", "Give a readable UTF-8 text file") from None
    if args.file == "-" or not sys.stdin.isatty():
        try:
            return sys.stdin.read()
        except UnicodeDecodeError:
            raise param_error("stdin is not UTF-8 text") from None
    return None


def cmd_put(store, args) -> dict:
    content = _read_content(args)
    return store.put(content=content if content and content.strip() else None, item_id=args.id, type=args.type, key=args.key,
                     task_id=args.task_id, step_id=args.step_id, tags=args.tag, source=args.source,
                     weight=args.weight, confidence=args.confidence, context_tags=args.context_tag,
                     emotional_weight=args.emotional_weight, auto_link=not args.no_link)


def cmd_get(store, args) -> dict:
    return {"item": store.get(args.id, type=args.type, key=args.key, task_id=args.task_id,
                              step_id=args.step_id)}


def cmd_list(store, args) -> dict:
    items = store.list(type=args.type, task_id=args.task_id, step_id=args.step_id, key=args.key,
                       tags=args.tag, key_prefix=args.key_prefix, limit=args.limit, sort_by=args.sort_by,
                       include_stale=not args.exclude_stale)
    return {"count": len(items), "items": items}


def cmd_search(store, args) -> dict:
    if args.query and args.words:
        raise param_error("Give the query either with --query or as words, not both")
    query = args.query or " ".join(args.words)
    out = store.search(query, type=args.type, task_id=args.task_id, step_id=args.step_id, key=args.key,
                       tags=args.tag, limit=args.limit, sort_by=args.sort_by,
                       include_stale=not args.exclude_stale)
    result = {"fts5": out["fts5"], "query": query, "count": len(out["items"]), "items": out["items"]}
    if not store.fts5:
        result["warning"] = "FTS_UNAVAILABLE"
    return result


def cmd_delete(store, args) -> dict:
    return store.delete(args.id)


def cmd_export(store, args) -> dict | None:
    lines = (json.dumps(item, ensure_ascii=False) + "\n" for item in transfer.iter_export(store))
    if args.output:
        buffer = io.StringIO()
        count = 0
        for line in lines:
            buffer.write(line)
            count += 1
        try:
            atomic_write_text(args.output, buffer.getvalue(), mode=0o600)
        except OSError as exc:
            raise param_error(f"Cannot write --output {args.output}: {exc}") from None
        return {"exported": count, "output": os.path.abspath(args.output)}
    for line in lines:
        sys.stdout.write(line)
    sys.stdout.flush()
    return None


def cmd_import(store, args) -> dict:
    if args.input and args.input != "-":
        try:
            with open(args.input, encoding="utf-8") as fh:
                return transfer.import_lines(store, fh.read().splitlines())
        except (OSError, UnicodeDecodeError) as exc:
            raise param_error(f"Cannot read --input {args.input}: {exc}") from None
    return transfer.import_lines(store, sys.stdin.read().splitlines())


def cmd_recover(_store, args) -> dict:
    from ..memtool.recover import recover
    return recover(args.db, args.output, lambda path: MemoryStore(path))


def cmd_recommend(store, args) -> dict:
    out = recall.recommend(store, context=args.context, task_id=args.task_id, tags=args.tag,
                           key_prefix=args.key_prefix, type=args.type, limit=args.limit,
                           include_stale=args.include_stale)
    return {"count": len(out["items"]), **out}


def cmd_cleanup(store, args) -> dict:
    return store.cleanup(type=args.type, older_than_days=args.older_than_days,
                         stale_threshold=args.stale_threshold, apply=args.apply)


def cmd_contextual(store, args) -> dict:
    out = recall.contextual_search(store, args.query, context_tags=args.context_tag,
                                   emotional_filter=args.emotion, type=args.type, limit=args.limit)
    return {"count": len(out["items"]), **out}


def cmd_assess(store, args) -> dict:
    return metacognition.assess_knowledge(store, args.topic, type=args.type)


def cmd_map(store, args) -> dict:
    graph = knowledge_map.build(store, args.topic, depth=args.depth, min_score=args.min_score, type=args.type)
    graph["mermaid"] = knowledge_map.to_mermaid(graph)
    for path, text, field in ((args.html, lambda: knowledge_map.to_html(graph), "html"),
                              (args.mermaid, lambda: graph["mermaid"] + "\n", "mermaid_file")):
        if path:
            try:
                atomic_write_text(path, text())
            except OSError as exc:
                raise param_error(f"Cannot write {path}: {exc}") from None
            graph[field if field != "html" else "html_file"] = os.path.abspath(path)
    return graph


def cmd_review(store, args) -> dict:
    return metacognition.review_due(store, type=args.type, min_importance=args.min_importance,
                                    limit=args.limit)


# --- text renderings ------------------------------------------------------------------------

def _item_line(item: dict) -> str:
    first = " ".join((item.get("content") or "").split())[:70]
    where = "/".join(x for x in (item.get("task_id"), item.get("step_id")) if x)
    tags = f" [{', '.join(item['tags'])}]" if item.get("tags") else ""
    extra = ""
    if "recommend_score" in item:
        extra = f" score={item['recommend_score']:.3f} ({', '.join(item['recommend_reasons']) or '-'})"
    elif "importance" in item:
        extra = f" importance={item['importance']} overdue={item['days_overdue']}d"
    return (f"{item['id']}  {item['type']}:{item.get('key') or '-'}{(' ' + where) if where else ''} "
            f"v{item['version']} {str(item.get('updated_at'))[:19]}{tags}{extra}\n    {first}")


def render_items(result: dict) -> str:
    head = []
    if "fts5" in result:
        head.append(f"fts5: {'yes' if result['fts5'] else 'no (LIKE)'}")
    head.append(f"{len(result['items'])} item(s)")
    return "\n".join([", ".join(head)] + [_item_line(it) for it in result["items"]])


def render_item(result: dict) -> str:
    item = result["item"]
    meta = {k: item[k] for k in ("id", "type", "key", "task_id", "step_id", "tags", "source", "weight",
                                 "version", "confidence_level", "created_at", "updated_at", "context_tags",
                                 "related_ids", "is_stale") if item.get(k) not in (None, [], "")}
    return "\n".join(f"{k}: {v}" for k, v in meta.items()) + "\n\n" + item["content"]


def render_put(result: dict) -> str:
    line = f"{result['action']} {result['id']} (version {result['version']})"
    if result.get("related"):
        line += f"\nrelated: {', '.join(r['id'] for r in result['related'])}"
    if result.get("possible_duplicates"):
        line += f"\npossible duplicates: {', '.join(r['id'] for r in result['possible_duplicates'])}"
    return line


def render_cleanup(result: dict) -> str:
    verb = "would delete" if result["dry_run"] else "deleted"
    lines = [f"{verb} {result['count']} item(s)" + (" (dry run; add --apply)" if result["dry_run"] else "")]
    lines += [f"{c['id']}  {c['type']}:{c.get('key') or '-'} age {c['age_days']}d decay {c['decay_score']}"
              f" ({', '.join(c['reasons'])})" for c in result["candidates"]]
    return "\n".join(lines)


def render_assess(result: dict) -> str:
    lines = [f"{result['confidence']} ({result['score']}): {result['message']}"]
    lines += [f"- {s}" for s in result["suggestions"]]
    lines += [f"  evidence {e['id']} {e['key'] or ''}: {e['snippet']}" for e in result["evidence"]]
    return "\n".join(lines)


def render_map(result: dict) -> str:
    out = [f"{result['total_nodes']} node(s), {len(result['edges'])} edge(s)", result.get("mermaid", "")]
    if result.get("html_file"):
        out.append(f"HTML: {result['html_file']}")
    return "\n".join(out)


# --- edge -----------------------------------------------------------------------------------

def _choose_db(args) -> str | None:
    """Set ``args.db`` by the shared rule (memtool/location.py); the notice about a stray
    ``./memtool.db`` (also written to stderr), or None."""
    if args.db or os.environ.get("MEMTOOL_DB"):  # a named database needs no config (it may be unreadable)
        args.db, how = resolve_db(None, args.db)
        return None
    cfg = load_config(root_override=args.root, project_dir=os.getcwd())
    args.db, how = resolve_db(cfg, args.db)
    if how == "memory root" and args.command in WRITE_COMMANDS:
        os.makedirs(cfg.root, exist_ok=True)
    stray = stray_local_db(os.getcwd(), args.db) if how in ("config memtool.db", "memory root") else None
    if stray is None:
        return None
    notice = stray_notice(stray, args.db)
    sys.stderr.write(f"memtool: {notice}\n")
    return notice


def _caller_scope(args) -> tuple:
    """``(visible, owner)`` of this caller (search/access.py): a Claude Code session or a detached
    process reads, updates and deletes global items and its own project's only, writes to its
    project, uses only the configured database and never recovers a whole database; you at your
    terminal see every item, and what you write is global."""
    from ..caller import identify
    from ..search.access import resolve_scope, who_asks
    from .common import guard_caller

    caller = guard_caller(args, None, identify())      # the root, locked $MEMTOOL_DB
    if not caller.restricted:
        return None, None
    cfg = load_config(root_override=args.root, project_dir=os.getcwd())
    configured = resolve_db(cfg, None)[0]
    if args.command == "recover" or (args.db and os.path.realpath(args.db) != os.path.realpath(configured)):
        raise CodeMemoryError("MEMORY_SCOPE_DENIED",
                              ("memtool recover copies every project's items" if args.command == "recover"
                               else f"--db {args.db} is not the database this session was configured with")
                              + f"; refused {who_asks(caller)}",
                              hint="run it yourself in a terminal outside Claude Code")
    scope = resolve_scope(cfg, caller=caller)
    return scope.areas, scope.project


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    fmt = "text" if "--format=text" in argv or ("--format" in argv and "text" in argv) else "json"
    store = None
    try:
        args = build_parser().parse_args(argv)
        fmt = args.format or "json"
        visible, owner = _caller_scope(args)
        notice = _choose_db(args)
        store = _open(args, visible, owner)
        result = args.handler(store, args)
        if store is not None:
            store.close()
        store = None
        if result is not None:
            emit({"ok": True, **result, **({"notice": notice} if notice else {})}, fmt,
                 args.renderer or render_text)
        return 0
    except _WarnExit as warn:
        emit({"ok": True, **warn.result}, fmt, render_text)
        return warn.status
    except MemtoolError as exc:
        emit(exc.to_dict(), fmt)
        return exc.exit_code
    except CodeMemoryError as exc:  # the configuration could not be read (after MemtoolError: a subclass)
        emit(exc.to_dict(), fmt)
        return 2
    except sqlite3.Error as exc:
        err = db_error(exc)
        emit(err.to_dict(), fmt)
        return err.exit_code
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        emit({"ok": False, "error": "GENERAL_ERROR", "message": "interrupted"}, fmt)
        return 130
    except Exception as exc:  # the edge: never a traceback on stdout
        if os.environ.get("MEMTOOL_DEBUG") or os.environ.get("CODE_MEMORY_DEBUG"):
            traceback.print_exc(file=sys.stderr)
        emit({"ok": False, "error": "GENERAL_ERROR", "message": f"unexpected {type(exc).__name__}: {exc}",
              "hint": "set MEMTOOL_DEBUG=1 for a traceback on stderr and report it"}, fmt)
        return 1
    finally:
        if store is not None:
            try:
                store.close()
            except Exception:
                pass
