"""The memory browser's To-dos page: the to-dos recent sessions left open, finished, restated or let
expire, with a done / reopen button each — and, on a to-do the summarizer closed, who closed it, the
statement that supports the close, and a confirm button (docs/browser.md § To-dos). It reads and writes through
memory/todos.py — the same calls as ``code-memory todo list|done|reopen`` (recorded as ``by: ui``).
"""

from __future__ import annotations

from ..errors import invalid
from .views import State, check_name, check_root

STATUS_CHOICES = ("open", "done", "carried", "expired", "all")


def _expire_days(state: State) -> float:
    return float((state.cfg.get("hooks") or {}).get("todo_expire_days") or 0)


def todos_page(state: State, project: str = "", status: str = "open") -> dict:
    from ..memory import todos

    check_root(state)
    if project:
        check_name(project)
    if status not in STATUS_CHOICES:
        raise invalid(f"status is one of {', '.join(STATUS_CHOICES)}")
    every = todos.list_todos(state.paths, statuses=todos.STATUSES, expire_days=_expire_days(state))
    counts = {s: sum(1 for t in every if t["status"] == s and (not project or t["project"] == project))
              for s in todos.STATUSES}
    shown = [dict(t, closer=todos.closer(t)) for t in every
             if (status == "all" or t["status"] == status) and (not project or t["project"] == project)]
    return {"project": project, "status": status, "todos": shown, "counts": counts,
            "projects": sorted({t["project"] for t in every if t["project"]})}


def decide(state: State, fields: dict, action: str) -> dict:
    """Close or reopen the to-do the form names by its id (``done`` on one the summarizer closed confirms it)."""
    from ..memory import todos

    check_root(state)
    wanted = str(fields.get("id") or "").strip().lower()
    if len(wanted) != 8 or any(c not in "0123456789abcdef" for c in wanted):
        raise invalid("a to-do is named by its 8-digit id")
    todo = todos.decide(state.paths, wanted, action, by="ui", expire_days=_expire_days(state))
    label = {"done": "closed · 已完成", "confirm": "confirmed · 已确认"}.get(todo["action"], "reopened · 已重新打开")
    return {"todo": todo, "message": f"{label}: {todo['text'][:120]}"}
