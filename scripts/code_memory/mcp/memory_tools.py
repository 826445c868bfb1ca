"""The Markdown memory as MCP tools: memory_search (ranked hits with path + lines) and memory_get
(the exact lines), through the core search API (:mod:`code_memory.search.engine`).

Both are scoped to the session, never to every project: search uses ``scope="project"`` (global
memory + this project's area and sessions + the workspace holding the project directory, if it is a
registered workspace); get reads files inside the memory root — except another project's area
(``areas/projects/<other>``) and another project's session notes — and inside that workspace's
``memory/``. Project and workspace are detected from the server's project directory.

Inside a Claude Code session (``CLAUDE_CODE_SESSION_ID``, read by the server) the experiences a hit
or a get shows — pitfalls, rules, facts — are recorded as used in that session (README
§ Self-evolution), as when Claude runs ``memory-search.py`` from Bash; ``feedback.record_refs =
false`` turns that off.
"""

# No ``from __future__ import annotations`` (see memtool_tools): the SDK needs real annotations.
import os
from typing import Literal, Optional

from ..errors import CodeMemoryError

SearchMode = Literal["auto", "bm25", "vector", "hybrid"]


def foreign_path_reason(root: str, real_path: str, project: Optional[str], allowed_areas) -> Optional[str]:
    """Why ``real_path`` (resolved, inside ``root``) belongs to another project, or None."""
    rel = os.path.relpath(real_path, os.path.realpath(root)).split(os.sep)
    if len(rel) >= 3 and rel[0] == "areas" and rel[1] == "projects" and rel[2] not in allowed_areas:
        return f"areas/projects/{rel[2]} is another project's memory"
    if len(rel) == 2 and rel[0] == "sessions" and rel[1].endswith(".md"):
        from ..fsutil import read_text
        from ..search.chunking import session_project
        owner = session_project(read_text(real_path, default="") or "")
        if owner and owner != project:
            return "that session note belongs to another project"
    return None


def tools(ctx) -> list:
    def memory_search(query: str, top_k: Optional[int] = None, mode: Optional[SearchMode] = None) -> dict:
        """Search the user's lasting Markdown memory (MEMORY.md, this project's rules/summary/facts,
        patterns, tools, daily notes, session summaries, this workspace's memory/ notes) — global
        memory plus the current project and workspace only. Chinese and English; BM25 with vectors
        when available. Each hit has path, start_line, end_line, heading, snippet and score; read
        more with memory_get."""
        from ..search.engine import search_memory
        workspace = ctx.workspace()
        answer = search_memory(ctx.cfg, query, mode=mode, top_k=top_k, scope="project",
                               project=ctx.project_name(), workspace=workspace.id if workspace else None)
        from ..search.feedback_boost import record_shown, result_ids
        record_shown(ctx.cfg, ctx.session_id, result_ids(answer.get("results", [])), "mcp-search")
        return answer

    def memory_get(path: str, from_line: int = 1, lines: int = 40) -> dict:
        """Read exact lines of a memory file found by memory_search (path as returned, or relative
        to the memory root), 1-based from_line, at most 200 lines."""
        from ..paths import resolve_inside
        from ..search.engine import get_lines
        root = ctx.cfg.root
        workspace = ctx.workspace()
        roots = [root] + ([workspace.memory_dir] if workspace else [])
        real = resolve_inside(path, roots, base=root)
        reason = foreign_path_reason(root, real, ctx.project_name(), ctx.project_areas())
        if reason:
            raise CodeMemoryError("MEMORY_PATH_TRAVERSAL", f"{reason}; this session sees global memory "
                                  "and its own project's", hint="use memory_search to find readable files",
                                  path=path)
        answer = get_lines(roots, real, from_line, lines, base=root)
        if ctx.session_id:
            from ..search.feedback_boost import ExperienceFinder, record_shown
            record_shown(ctx.cfg, ctx.session_id, ExperienceFinder(root).ids(answer["path"], answer["text"]),
                         "mcp-get")
        return answer

    return [memory_search, memory_get]
