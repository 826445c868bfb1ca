"""The agent key-value memory as MCP tools: ``set_memory`` (the one write verb; docs/stores.md § Agent key-value memory) and
``memory_default_read`` (the ranked ``[Agent Memory]`` block within a token budget).

Options come from the config's ``kv`` section (read once by the server). A write that reports
``compaction_due`` is followed by a compaction when ``kv.auto_compact`` is on
(:func:`code_memory.kv.edge.set_memory`, shared with the CLI).
The default read takes the session's project name as its context tag unless tags are given;
quarantined ``/untrusted/…`` keys are never part of it. A write through MCP is the model's: its
source is agent-level whatever it declares (docs/stores.md § provenance), so it never replaces or
deletes a key the user wrote.
"""

# No ``from __future__ import annotations`` (see memtool_tools): the SDK needs real annotations.
from typing import Any, Dict, List, Optional, Union


def tools(ctx) -> list:
    def set_memory(key: str, json_content: Any, source: Union[Dict[str, Any], str]) -> dict:
        """Write agent key-value memory. key: a logical path starting with / (e.g.
        /user/preference/style, /user/calendar/2026-02-23_10-00_dentist, /kb/...); the same key
        overwrites (last write wins). json_content: any JSON, ideally an object with optional type,
        summary, importance (0-10), tags, expired_at (ISO 8601); null deletes the key (a tombstone;
        {} is ordinary content). source: where it came from, required; web/tool/file sources and
        every /kb/ key need {"kind", "name", "retrieved_at", "locator"}, e.g. {"kind": "web",
        "name": "example.com", "retrieved_at": "2026-02-22T10:00:00Z", "locator": {"url": "..."}}.
        Returns key, ts, valid and the index file's path (readable with ls/cat/grep/jq)."""
        from ..kv import edge
        from .answer import compact
        return compact(edge.set_memory(ctx.cfg, key, json_content, source, agent=True))

    def memory_default_read(token_limit: Optional[int] = None, tags: Optional[List[str]] = None,
                            now: Optional[str] = None, prefix: Optional[str] = None) -> dict:
        """The agent key-value memory's default read: '- key type summary' lines ranked by recency,
        importance and tag match, tombstoned and expired keys left out, within token_limit
        (default kv.read_token_limit). tags: context tags (default: the session's project name);
        now: ISO 8601 time for expiry and recency (default now); prefix: only keys under it.
        Returns text, lines, token_count, included, candidates."""
        from ..kv import edge
        from ..kv.read import default_read
        limit = edge.token_limit(ctx.cfg, token_limit, "token_limit")
        moment = edge.parse_now(now, "now")
        if tags is None:
            project = ctx.project_name()
            tags = [project] if project else []
        from .answer import compact
        return compact(default_read(ctx.cfg.root, limit, tags=tags, now=moment, options=edge.options(ctx.cfg),
                                    prefix=prefix))

    return [set_memory, memory_default_read]
