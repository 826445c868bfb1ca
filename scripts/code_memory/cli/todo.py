"""``code-memory todo list|done|reopen`` — the to-dos sessions left open (docs/summaries.md § To-dos).

Thin: parse, call :mod:`code_memory.memory.todos`, print. A to-do is named by its id (``list``
shows it; a unique prefix of 4+ digits does) or by a piece of its text.
"""

from __future__ import annotations

from .common import add_common

STATUS_CHOICES = ("open", "done", "carried", "expired", "all")


def _settings(args):
    from ..config import load_config
    cfg = load_config(args.root)
    return cfg, float((cfg.get("hooks") or {}).get("todo_expire_days") or 0)


def _project(cfg, args) -> str | None:
    if args.project or not args.here:
        return args.project
    import os

    from ..projects import detect_project
    found = detect_project(None, os.getcwd(), cfg.get("projects"))
    return found.name if found else None


def cmd_list(args) -> dict:
    from ..memory import todos
    cfg, expire_days = _settings(args)
    statuses = todos.STATUSES if args.status == "all" else (args.status,)
    project = _project(cfg, args)
    items = todos.list_todos(cfg.paths, project=project, statuses=statuses, expire_days=expire_days)
    return {"count": len(items), "status": args.status, "project": project, "expire_days": expire_days,
            "todos": items}


def _session_id() -> str | None:
    """The Claude Code session this command runs in: Claude's Bash tool sets
    ``CLAUDE_CODE_SESSION_ID`` (a uuid); the brief then names the close in that session's entry."""
    import os

    found = os.environ.get("CLAUDE_CODE_SESSION_ID") or ""
    return found if 0 < len(found) <= 100 and all(c.isascii() and (c.isalnum() or c in "-_") for c in found) else None


def _decide(args, action: str) -> dict:
    from ..memory import todos
    cfg, expire_days = _settings(args)
    todo = todos.decide(cfg.paths, " ".join(args.todo), action, by="cli", project=_project(cfg, args),
                        expire_days=expire_days, in_session=_session_id(), remaining=getattr(args, "remaining", None))
    return {"todo": todo}


def cmd_done(args) -> dict:
    return _decide(args, "done")


def cmd_reopen(args) -> dict:
    return _decide(args, "reopen")


def render_list(result: dict) -> str:
    if not result["todos"]:
        return f"no {result['status'] if result['status'] != 'all' else ''} to-dos".replace("  ", " ")
    from ..memory.todos import closer
    mark = {"open": "[ ]", "done": "[x]", "carried": "[>]", "expired": "[~]"}
    return "\n".join(f"{t['id']}  {mark.get(t['status'], '[?]')} {t['text']}  ({t['project']}, {t['note']}"
                     + (f", {t['status']}" if t["status"] not in ("open", "done") else "")
                     + (f", done by {closer(t)}" if t["status"] == "done" else "")
                     + (f": “{t['closed_why']}”" if t["status"] == "done" and t.get("closed_why") else "")
                     + ")" for t in result["todos"])


def render_decision(result: dict) -> str:
    todo = result["todo"]
    state = "confirmed (the summarizer's close stands)" if todo.get("action") == "confirm" else todo["status"]
    left = f"\n{todo['remaining_id']}  [ ] {todo['remaining']}  (what is left: open)" if todo.get("remaining_id") else ""
    return f"{todo['id']} {state}{' in part' if left else ''}: {todo['text']}{left}"


def register(sub) -> None:
    todo = sub.add_parser("todo", help="the to-dos sessions left open: list them, close one, reopen one",
                          description="The to-dos the recent sessions left open, as the SessionStart brief "
                                      "shows them. A to-do is named by its id (from `list`) or by words of its text.")
    tsub = todo.add_subparsers(dest="todo_command", metavar="ACTION")
    tsub.required = True

    def scope(p) -> None:
        p.add_argument("--project", metavar="NAME", help="only this project's to-dos (default: every project)")
        p.add_argument("--here", action="store_true", help="only the to-dos of the project of the current directory")

    p = tsub.add_parser("list", help="list to-dos (open ones by default) with their ids")
    p.add_argument("--status", choices=STATUS_CHOICES, default="open",
                   help="open (default), done, carried (restated by a later session), expired, or all")
    scope(p)
    add_common(p)
    p.set_defaults(handler=cmd_list, text_renderer=render_list)

    p = tsub.add_parser("done", help="close a to-do that is finished (it leaves the brief); on one the summarizer "
                                     "closed, confirm that close")
    p.add_argument("todo", nargs="+", metavar="ID_OR_WORDS", help="the to-do's id, or words of its text")
    p.add_argument("--remaining", metavar="TEXT", help="the work finished it only in part: what is left (1–300 "
                   "characters) stays open as its own to-do of the same session")
    scope(p)
    add_common(p)
    p.set_defaults(handler=cmd_done, text_renderer=render_decision)

    p = tsub.add_parser("reopen", help="open a closed, restated or expired to-do again (its age starts over)")
    p.add_argument("todo", nargs="+", metavar="ID_OR_WORDS", help="the to-do's id, or words of its text")
    scope(p)
    add_common(p)
    p.set_defaults(handler=cmd_reopen, text_renderer=render_decision)
