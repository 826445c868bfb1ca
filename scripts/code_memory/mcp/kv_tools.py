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
from . import params as p


def tools(ctx) -> list:
    @p.tool("Remember a key-value memory", read_only=False, destructive=True, idempotent=True)
    def set_memory(key: p.KvKey, json_content: p.KvContent, source: p.KvSource) -> dict:
        """Write agent key-value memory: small memories (preferences, reminders, sourced facts under
        /kb/) that the next sessions see in their [Agent Memory] block. The write is the agent's,
        whatever the source says: it never replaces or deletes a key the user wrote. Returns key,
        ts, valid and the index file's path (readable with ls/cat/grep/jq)."""
        from ..kv import edge
        return edge.set_memory(ctx.cfg, key, json_content, source, agent=True)

    @p.tool("Read the key-value memory", read_only=True)
    def memory_default_read(token_limit: p.TokenLimit = None, tags: p.ReadTags = None, now: p.Now = None,
                            prefix: p.ReadPrefix = None) -> dict:
        """The agent key-value memory's default read: '- key type summary' lines ranked by recency,
        importance and tag match, tombstoned and expired keys left out, within the token budget.
        Returns text, lines, token_count, included, candidates."""
        from ..kv import edge
        from ..kv.read import default_read
        limit = edge.token_limit(ctx.cfg, token_limit, "token_limit")
        moment = edge.parse_now(now, "now")
        if tags is None:
            project = ctx.project_name()
            tags = [project] if project else []
        return default_read(ctx.cfg.root, limit, tags=tags, now=moment, options=edge.options(ctx.cfg), prefix=prefix)

    return [set_memory, memory_default_read]
