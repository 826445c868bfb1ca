"""``code-memory kv …`` and ``set-memory.py``: the agent key-value memory from the command line.

  kv set KEY CONTENT [SOURCE | --source SOURCE]   CONTENT is JSON (``-`` = stdin, ``null`` = tombstone)
  kv get KEY          kv ls [PREFIX]              kv read [--token-limit N] [--tags a,b] [--now T]
  kv compact [--policy A|B] [--dry-run]           kv check [--repair]
"""

from __future__ import annotations

import json
import sys

from ..config import load_config
from ..errors import CodeMemoryError
from .common import add_common, options_script_main, restricted

# JSON text longer than this many times kv.max_content_bytes cannot fit once made compact; it is
# refused before it is read whole or parsed
RAW_SLACK = 4


def _parse_content(text: str, limit: int):
    raw_limit = limit * RAW_SLACK
    if text == "-":
        text = sys.stdin.read(raw_limit + 1)
        if len(text) > raw_limit:
            raise CodeMemoryError("KV_CONTENT_INVALID", f"content on stdin is longer than {raw_limit} characters",
                                  hint="store a summary and a locator instead, or raise kv.max_content_bytes")
    elif len(text) > raw_limit:
        raise CodeMemoryError("KV_CONTENT_INVALID", f"content is longer than {raw_limit} characters",
                              hint="store a summary and a locator instead, or raise kv.max_content_bytes")
    return _json_value(text, "KV_CONTENT_INVALID", "content",
                       'quote it as JSON, e.g. \'{"summary": "…"}\' or \'"plain text"\'; null deletes')


def _json_value(text: str, code: str, what: str, hint: str):
    """``json.loads`` with every malformed input (bad JSON, deep nesting, undecodable bytes) as ``code``."""
    from ..names import valid_utf8
    if not valid_utf8(text):
        raise CodeMemoryError(code, f"{what} is not valid UTF-8", hint="send UTF-8 text")
    try:
        return json.loads(text)
    except RecursionError:
        raise CodeMemoryError(code, f"{what} is nested too deeply", hint=hint) from None
    except ValueError as exc:
        raise CodeMemoryError(code, f"{what} is not valid JSON ({exc})", hint=hint) from None


def parse_source(text: str | None):
    """A ``--source`` value: a JSON object (or JSON string), otherwise the plain text itself."""
    if text is None:
        return None
    from ..kv.provenance import MAX_SOURCE_BYTES
    if len(text) > MAX_SOURCE_BYTES:
        raise CodeMemoryError("KV_SOURCE_INVALID", f"source is longer than {MAX_SOURCE_BYTES} characters")
    stripped = text.strip()
    if not stripped.startswith(("{", '"')):
        from ..names import valid_utf8
        if not valid_utf8(text):
            raise CodeMemoryError("KV_SOURCE_INVALID", "source is not valid UTF-8", hint="send UTF-8 text")
        return text
    value = _json_value(stripped, "KV_SOURCE_INVALID", "source", "give a JSON object or a short string")
    return value if isinstance(value, (dict, str)) else text


def cmd_set(args) -> dict:
    from ..kv import edge
    if args.source_pos is not None and args.source is not None:
        raise CodeMemoryError("INVALID_ARGUMENT", "give the source once (positional or --source)")
    source = parse_source(args.source if args.source is not None else args.source_pos)
    cfg = load_config(root_override=args.root)
    options = edge.options(cfg)
    return edge.set_memory(cfg, args.key, _parse_content(args.content, options.max_content_bytes), source, options,
                           agent=restricted())


def _refuse_quarantined(normal: str) -> None:
    """``normal``: a normalized key or listing prefix (``""``: every key)."""
    from ..caller import identify
    from ..kv.provenance import is_quarantined
    from ..search.access import who_asks
    if is_quarantined(normal):
        caller = identify()
        if caller.restricted:
            raise CodeMemoryError("NOT_FOUND", f"quarantined keys are not served {who_asks(caller)}",
                                  hint="they hold content without provenance; read them yourself in a terminal "
                                       "(code-memory kv get) or in the review queue")


def cmd_get(args) -> dict:
    from ..kv.keys import normalize_key
    from ..kv.view import get
    _refuse_quarantined(normalize_key(args.key))
    cfg = load_config(root_override=args.root)
    return get(cfg.root, args.key)


def cmd_ls(args) -> dict:
    from ..kv import edge
    from ..kv.keys import normalize_prefix
    from ..kv.view import ls
    _refuse_quarantined(normalize_prefix(args.prefix))      # no prefix: "" (normalize_key refuses "/")
    cfg = load_config(root_override=args.root)
    return ls(cfg.root, args.prefix, edge.options(cfg), limit=args.limit, include_untrusted=not restricted())


def _render_ls(result: dict) -> str:
    rows = [" ".join(filter(None, [k["key"], k["type"], k["summary"]])) for k in result["keys"]]
    return "\n".join(rows + [f"({result['total']} keys under {result['prefix']}; files in {result['index_dir']})"])


def cmd_read(args) -> dict:
    from ..kv import edge
    from ..kv.read import default_read
    cfg = load_config(root_override=args.root)
    limit = edge.token_limit(cfg, args.token_limit, "--token-limit")
    tags = [t for t in (args.tags or "").split(",") if t.strip()]
    if args.include_untrusted:
        _refuse_quarantined("/untrusted")
    return default_read(cfg.root, limit, tags=tags, now=edge.parse_now(args.now, "--now"),
                        options=edge.options(cfg), include_untrusted=args.include_untrusted, prefix=args.prefix)


def _render_read(result: dict) -> str:
    return result["text"]


def cmd_compact(args) -> dict:
    from ..kv import edge
    from ..kv.maintain import compact
    cfg = load_config(root_override=args.root)
    return compact(cfg.root, edge.options(cfg), policy=args.policy, dry_run=args.dry_run)


def cmd_check(args) -> dict:
    from ..kv import edge
    from ..kv.maintain import check
    cfg = load_config(root_override=args.root)
    return check(cfg.root, edge.options(cfg), repair=args.repair)


def _add_set_arguments(p) -> None:
    p.add_argument("key", help="logical key starting with /, e.g. /user/preference/style")
    p.add_argument("content", help="JSON content; '-' reads stdin; null writes a tombstone ({} is content)")
    p.add_argument("source_pos", nargs="?", metavar="SOURCE", help="same as --source")
    p.add_argument("--source", help="provenance: a JSON object {kind,name,retrieved_at,locator} or a short string")
    add_common(p)
    p.set_defaults(handler=cmd_set)


def register(sub) -> None:
    kv = sub.add_parser("kv", help="agent key-value memory (set_memory): set, get, ls, read, compact, check")
    kvsub = kv.add_subparsers(dest="kv_command", metavar="KV_COMMAND")
    kvsub.required = True

    _add_set_arguments(kvsub.add_parser("set", help="write a key (JSON content) or tombstone it (null)"))

    p = kvsub.add_parser("get", help="the live value of a key")
    p.add_argument("key", help="the key, e.g. /user/preference/style")
    add_common(p)
    p.set_defaults(handler=cmd_get)

    p = kvsub.add_parser("ls", help="live keys under a prefix (a folder of kv/index)")
    p.add_argument("prefix", nargs="?", default=None, help="a key prefix, e.g. /project/ (default: every key)")
    p.add_argument("--limit", type=int, default=None, help="at most this many keys")
    add_common(p)
    p.set_defaults(handler=cmd_ls, text_renderer=_render_ls)

    p = kvsub.add_parser("read", help="the default read: '- key type summary' lines within a token budget")
    p.add_argument("--token-limit", type=int, default=None, help="budget (default kv.read_token_limit)")
    p.add_argument("--tags", help="comma-separated context tags (a ranking signal)")
    p.add_argument("--now", help="current time, ISO 8601 (expiry and recency); default now")
    p.add_argument("--prefix", help="only keys under this prefix")
    p.add_argument("--include-untrusted", action="store_true", help="also list quarantined /untrusted/ keys")
    add_common(p)
    p.set_defaults(handler=cmd_read, text_renderer=_render_read)

    p = kvsub.add_parser("compact", help="merge the log into state.jsonl, apply the history policy, repair the index")
    p.add_argument("--policy", choices=("A", "B"), help="A: keep the log; B: archive it (default kv.history_policy)")
    p.add_argument("--dry-run", action="store_true", help="report what would happen, change nothing")
    add_common(p)
    p.set_defaults(handler=cmd_compact)

    p = kvsub.add_parser("check", help="report drift between log, state.jsonl and kv/index")
    p.add_argument("--repair", action="store_true", help="rewrite the index and state from the log")
    add_common(p)
    p.set_defaults(handler=cmd_check)


def set_memory_main(argv=None) -> int:
    """``set-memory.py KEY CONTENT [SOURCE] [--source S] [--root DIR]``."""
    return options_script_main("set-memory", "Write agent key-value memory (set_memory).", _add_set_arguments,
                               cmd_set, argv=argv)
