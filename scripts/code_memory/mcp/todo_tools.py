"""The to-dos as an MCP tool: ``memory_todo`` lists this project's to-dos with their ids, closes one
the session's work finished, or reopens one — the same calls as ``code-memory todo list|done|reopen``
and the browser's To-dos page (:mod:`code_memory.memory.todos`; docs/summaries.md § To-dos).

Scoped to the session's project (detected from ``$CLAUDE_PROJECT_DIR``, else the working directory,
as every memory tool): another project's to-do is ``NOT_FOUND`` here, whatever its id. A close is
recorded ``by: mcp`` with the Claude Code session it came from (``$CLAUDE_CODE_SESSION_ID``), so
``code-memory todo list --status done`` and the browser say who closed it.
"""

# No ``from __future__ import annotations`` (see memtool_tools): the SDK needs real annotations.
from ..errors import CodeMemoryError, invalid
from . import params as p

LIST_CAP = 50             # to-dos in one list answer; the rest are counted in ``omitted``
LISTED = ("id", "text", "status", "session", "note", "ended", "done_by", "closed_by", "closed_in", "closed_at",
          "reopened_at", "carried_to", "closed_why", "confirmed_at", "remaining", "remaining_id", "split_from")


def tools(ctx) -> list:
    # not read-only (it writes the to-do marks); not destructive (reopen undoes a done, done undoes a
    # reopen, the log keeps both); idempotent: the same call again changes nothing more — a second
    # done of the same to-do is answered CONFLICT ("already done") and writes nothing
    @p.tool("Close or list to-dos", read_only=False, destructive=False, idempotent=True)
    def memory_todo(action: p.TodoAction = "list", todo: p.TodoName = None, status: p.TodoStatus = None,
                    remaining: p.TodoRemaining = None) -> dict:
        """The to-dos earlier sessions of THIS project left open (the SessionStart brief lists them
        as `[ ] text (id 1a2b3c4d)`). When your work finishes one, close it: action done with its id
        (or words of its text) — it then leaves the next sessions' briefs. action list shows them
        with their ids (status open by default); action reopen opens a closed one again. The brief
        also names closes the summarizer made (`closed by the summarizer … (id …) ← “evidence”`):
        done on one of those confirms it, reopen undoes it when the work is not finished. Finished only
        part of one? done with remaining set to what is left: that part stays open as its own to-do."""
        from ..memory import todos
        project = ctx.project_name()
        if not project:
            raise CodeMemoryError("NOT_FOUND", "no project detected for this session",
                                  hint="to-dos belong to a project: start Claude Code in the project's directory")
        expire_days = float((ctx.cfg.get("hooks") or {}).get("todo_expire_days") or 0)
        if action == "list":
            if todo is not None:
                raise invalid("todo: only done and reopen name a to-do; list shows them all",
                              fields=["todo"])
            if remaining is not None:
                raise invalid("remaining: only done takes what is left of a to-do", fields=["remaining"])
            wanted = status or "open"
            found = todos.list_todos(ctx.cfg.paths, project=project, expire_days=expire_days,
                                     statuses=todos.STATUSES if wanted == "all" else (wanted,))
            answer = {"project": project, "status": wanted, "count": len(found[:LIST_CAP]),
                      "todos": [{k: t[k] for k in LISTED if t.get(k)} for t in found[:LIST_CAP]]}
            if len(found) > LIST_CAP:
                answer["omitted"] = len(found) - LIST_CAP
            return answer
        if status is not None:
            raise invalid(f"status: only list takes a status, not {action}", fields=["status"])
        if todo is None:
            raise invalid(f"todo: name the to-do to {'close' if action == 'done' else 'reopen'} (its id or "
                          "words of its text)", fields=["todo"])
        decided = todos.decide(ctx.cfg.paths, todo, action, by="mcp", project=project, expire_days=expire_days,
                               in_session=ctx.session_id, remaining=remaining)
        return {"project": project, "todo": {k: decided[k] for k in LISTED + ("action",) if decided.get(k)}}

    return [memory_todo]
