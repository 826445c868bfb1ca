"""Memory as MCP tools: memory_search (every store: the Markdown tree, the agent key-value keys,
this workspace, memtool), memory_get (what a hit's id points to), memory_list and memory_delete
(what is stored in memtool and the key-value memory) — :mod:`code_memory.search.unified`.

Search and get are scoped to the session, never to every project: the index part uses
``scope="project"`` (global memory + this project's area and sessions + the workspace holding the
project directory, if it is a registered workspace); get reads files by the one access policy of
every door (:mod:`code_memory.search.access`): inside the memory root and that workspace's
``memory/``, never derived files (index, kv log/snapshot/index files, databases, logs) nor another
project's area or session notes, other projects' daily lines hidden. Project and workspace are
detected from the server's project directory. Quarantined key-value keys (``/untrusted/…``) are never searched, listed, read
or deleted here.

Inside a Claude Code session (``CLAUDE_CODE_SESSION_ID``, read by the server) the experiences a hit
or a get shows — pitfalls, rules, facts — are recorded as used in that session (README
§ Self-evolution), as when Claude runs ``memory-search.py`` from Bash; ``feedback.record_refs =
false`` turns that off.
"""

# No ``from __future__ import annotations`` (see memtool_tools): the SDK needs real annotations.
from ..errors import CodeMemoryError, invalid
from . import params as p

LIST_SNIPPET = 160


def tools(ctx) -> list:
    from ..search.unified import MemtoolAccess

    memtool = MemtoolAccess(ctx.memtool_db, runner=ctx.memtool)

    @p.tool("Search memory", read_only=True)
    def memory_search(query: p.Query, top_k: p.TopK = None, mode: p.SearchMode = None,
                      sources: p.Sources = None) -> dict:
        """Search ALL of the user's lasting memory at once: the Markdown memory (MEMORY.md, this
        project's rules/summary/facts, patterns, tools, daily notes, session summaries), this
        workspace's notes, the key-value memory (set_memory) and the structured memtool items
        (memory_store) — global memory plus the current project and workspace only. Chinese and
        English; BM25 with vectors when available. Each hit has source, id, heading, snippet and
        score (files also path, start_line, end_line); pass a hit's id to memory_get to read it.
        stores says if one failed."""
        from ..search.feedback_boost import record_shown, result_ids
        from ..search.unified import search_all
        workspace = ctx.workspace()
        answer = search_all(ctx.cfg, query, memtool=memtool, sources=sources, mode=mode, top_k=top_k,
                            scope="project", project=ctx.project_name(),
                            workspace=workspace.id if workspace else None)
        record_shown(ctx.cfg, ctx.session_id, result_ids(answer.get("results", [])), "mcp-search")
        return answer

    @p.tool("Read a memory", read_only=True)
    def memory_get(id: p.HitId, from_line: p.FromLine = 1, lines: p.Lines = 40) -> dict:
        """Read what a memory_search hit points to: pass its id. A file gives exact lines
        (from_line, lines); kv:<key> gives the key's value; memtool:<id> gives the whole stored item."""
        from ..search.access import Scope, read_memory_lines
        from ..search.unified import get_by_id, kind_of
        if kind_of(id) != "file":
            return get_by_id(ctx.cfg, id, memtool)
        root = ctx.cfg.root
        scope = Scope(root, ctx.project_name(), ctx.project_areas(), ctx.workspace(), in_session=True)
        answer = read_memory_lines(ctx.cfg, scope, id, from_line, lines)
        if ctx.session_id:
            from ..search.feedback_boost import ExperienceFinder, record_shown
            record_shown(ctx.cfg, ctx.session_id, ExperienceFinder(root).ids(answer["path"], answer["text"]),
                         "mcp-get")
        return answer

    @p.tool("List stored memories", read_only=True)
    def memory_list(store: p.Store, prefix: p.ListPrefix = None, type: p.ItemTypeFilter = None,
                    limit: p.ListLimit = 50) -> dict:
        """List what is stored in memtool or the key-value memory, newest first, with the ids
        memory_get and memory_delete take."""
        if store == "kv":
            return _list_kv(ctx, prefix, limit)
        if not memtool.exists():
            return {"store": "memtool", "count": 0, "items": [], "note": "no memtool database yet"}
        found = memtool.run(lambda s: s.list(type=type, key_prefix=prefix, limit=limit))
        items = [{"id": f"memtool:{it['id']}", "type": it["type"], "key": it["key"], "task_id": it["task_id"],
                  "step_id": it["step_id"], "tags": it["tags"], "updated_at": it["updated_at"],
                  "snippet": _clip(it["content"])} for it in found]
        return {"store": "memtool", "count": len(items), "items": items}

    @p.tool("Delete a stored memory", read_only=False, destructive=True, idempotent=True)
    def memory_delete(id: p.DeleteId) -> dict:
        """Delete one stored memory by the id memory_search or memory_list gave: memtool:<id>
        removes that memtool item; kv:<key> deletes that key-value key (a tombstone: its history
        stays in the log), unless the user wrote it. Markdown memory files are not deleted here:
        they are the user's files."""
        from ..search.unified import kind_of
        kind = kind_of(id)
        if kind == "memtool":
            if not memtool.exists():
                raise CodeMemoryError("NOT_FOUND", "there is no memtool database yet")
            done = memtool.run(lambda s: s.delete(id[len("memtool:"):]))
            return {"store": "memtool", **done, "id": f"memtool:{done['id']}"}
        if kind == "kv":
            from ..kv import edge
            from ..kv.keys import normalize_key
            from ..kv.provenance import is_quarantined
            from ..kv.view import get
            key = normalize_key(id[len("kv:"):])
            if is_quarantined(key):
                raise CodeMemoryError("NOT_FOUND", "quarantined keys are not served here")
            get(ctx.cfg.root, key)  # NOT_FOUND when absent or already deleted
            from ..timeutil import now_iso
            source = {"kind": "agent", "name": "memory_delete (MCP)", "retrieved_at": now_iso(),
                      "locator": {"id": f"kv:{key}"}}   # full provenance: /kb/ keys need it too
            done = edge.set_memory(ctx.cfg, key, None, source, agent=True)   # never the user's keys
            return {"store": "kv", "id": f"kv:{key}", "deleted": True, "ts": done.get("ts")}
        raise invalid("only memtool: and kv: ids can be deleted",
                      hint="Markdown memory is the user's files: edit them instead")

    return [memory_search, memory_get, memory_list, memory_delete]


def _clip(text) -> str:
    text = " ".join(str(text or "").split())
    return text if len(text) <= LIST_SNIPPET else text[:LIST_SNIPPET - 1] + "…"


def _list_kv(ctx, prefix, limit: int) -> dict:
    """Live keys (quarantined ones left out), newest first."""
    from ..kv import edge
    from ..kv.view import ls
    listing = ls(ctx.cfg.root, prefix, options=edge.options(ctx.cfg), include_untrusted=False)
    keys = listing["keys"]
    keys.sort(key=lambda k: k["ts"], reverse=True)
    items = [{"id": f"kv:{k['key']}", "key": k["key"], "type": k["type"], "summary": k["summary"], "ts": k["ts"]}
             for k in keys[:limit]]
    return {"store": "kv", "prefix": listing["prefix"], "count": len(items), "total": len(keys), "items": items}
