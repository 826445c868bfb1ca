"""Agent key-value memory: ``set_memory(key, json_content | None, source)`` (docs/stores.md § Agent key-value memory).

Files under ``<root>/kv/``: ``log.jsonl`` (every write, append-only), ``state.jsonl`` (compacted
snapshot), ``digest.bin`` (read cache), ``index/`` (one small JSON file per live key, browsable with
ls/grep/jq), ``archive/`` (rotated logs). Modules: keys (key → path, pure), provenance (source
rules, pure), logfile (log/state files), write (set_memory), view (live view, get, ls), read
(default read), maintain (check, compact), edge (config → options, write + auto-compaction: what
the CLI and the MCP tools share); the metadata log is code_memory.oplog.
"""
