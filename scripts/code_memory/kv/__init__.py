"""Agent key-value memory: ``set_memory(key, json_content | None, source)`` (spec 004).

Files under ``<root>/kv/``: ``log.jsonl`` (every write, append-only), ``state.jsonl`` (compacted
snapshot), ``digest.bin`` (read cache), ``index/`` (one small JSON file per live key, browsable with
ls/grep/jq), ``archive/`` (rotated logs). Modules: keys (key → path, pure), provenance (source
rules, pure), logfile (log/state files), write (set_memory), view (live view, get, ls), read
(default read), maintain (check, compact), edge (config → options, write + auto-compaction: what
the CLI and the MCP tools share); the metadata log is code_memory.oplog.
"""

from importlib import import_module

# Lazy exports: ``kv read`` (SessionStart) imports only what the read path needs.
_EXPORTS = {
    "KVLayout": "layout", "KVOptions": "layout", "set_memory": "write", "get": "view", "ls": "view",
    "default_read": "read", "count_tokens": "read", "check": "maintain", "compact": "maintain",
}
__all__ = list(_EXPORTS)


def __getattr__(name):
    if name in _EXPORTS:
        return getattr(import_module(f".{_EXPORTS[name]}", __name__), name)
    raise AttributeError(name)
