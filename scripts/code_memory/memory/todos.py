"""The to-dos of the recent-work index as one list, and what the person decides about them
(docs/summaries.md § To-dos): ``code-memory todo list|done|reopen`` and the memory browser's
To-dos page both come here.

A to-do is named by a short id (8 hex digits of the FNV-1a hash of its session id and text —
stable across rebuilds of the index). Its status:

    open       not finished, not restated by a later session, younger than the expiry age
    done       a later session finished it (``done_by``: that session; ``closed_why``: the statement
               of that session that supports it; the summarizer's close until the person confirms
               it, ``confirmed_at``) or the person closed it (``done_by: "user"``)
    carried    a later session listed it again as its own to-do (that copy is the live one)
    expired    open, but older than ``expire_days`` (hooks.todo_expire_days): the brief says so
               in one line for EXPIRED_NOTICE_DAYS, then shows it no more; reopening it restarts
               its clock

What the person (or the model, through the ``memory_todo`` MCP tool) decides is appended to
``sessions/todo-marks.jsonl`` (``{"ts", "action": done | reopen | confirm, "session": the to-do's
session, "text", "id", "by": cli | ui | mcp, "in_session"?: the Claude Code session it came from,
"remaining"?: what is left of a to-do closed in part — it stays open as a to-do of the same session}``;
``done`` on a to-do the summarizer closed and nobody confirmed writes ``confirm``: the close is
right, the brief stops asking about it) — the truth, next to the notes the index is rebuilt from
(memory/recent.py replays it) — and applied to the index files at once. A reopened to-do can be
finished again by a session that ends after the reopening.
"""

from __future__ import annotations

import os
import time

from ..errors import CodeMemoryError, invalid
from ..fsutil import append_jsonl
from ..paths import MemoryPaths
from . import recent

EXPIRED_NOTICE_DAYS = 7
STATUSES = ("open", "done", "carried", "expired")
MAX_TEXT = 300
DOORS = {"cli": "the CLI (code-memory todo done)", "ui": "the memory browser", "mcp": "the model (memory_todo)"}


def todo_id(session_id: str, text: str) -> str:
    """8 hex digits naming one to-do of one session (FNV-1a, no hashlib on the hook path)."""
    value = 0x811C9DC5
    for byte in f"{session_id}\n{text}".encode("utf-8"):
        value = ((value ^ byte) * 0x01000193) & 0xFFFFFFFF
    return f"{value:08x}"


def status(entry: dict, todo: dict, now: float, expire_days: float) -> str:
    if todo.get("done_by"):
        return "done"
    if todo.get("carried_to"):
        return "carried"
    return "expired" if expire_days > 0 and now - _since(entry, todo) > expire_days * 86400 else "open"


def _since(entry: dict, todo: dict) -> float:
    """When the to-do's clock started: its session's end, or the person's reopening of it."""
    return max(recent.number(entry.get("ts")), recent.number(todo.get("reopened_at")))


def expired_since(entry: dict, todo: dict, expire_days: float) -> float:
    """When an open to-do expired (epoch seconds)."""
    return _since(entry, todo) + expire_days * 86400


def _index_files(paths: MemoryPaths, project: str | None) -> list:
    """``[(kind, name, path)]`` of the project index files (one project, or all)."""
    if project:
        path = recent.index_path(paths, "project", project)
        return [("project", project, path)] if os.path.exists(path) else []
    return recent.index_files(paths, ("project",))


def list_todos(paths: MemoryPaths, *, project: str | None = None, statuses=("open",), expire_days: float = 30,
               now: float | None = None) -> list:
    """The to-dos of one project's (or every project's) recent sessions with their status, newest
    session first: ``[{"id", "text", "status", "session", "note", "project", "ended", "done_by"?,
    "closed_at"?, "closed_by"?, "closed_in"?, "closed_why"?, "confirmed_at"?, "by_summarizer"?}]``
    (``by_summarizer``: a done to-do the summarizer closed, not the person or the model)."""
    now = time.time() if now is None else now
    out = []
    for _kind, _name, path in _index_files(paths, project):
        for entry in recent.load_entries(path) or []:
            for todo in entry.get("todos") or []:
                if not isinstance(todo, dict) or not isinstance(todo.get("text"), str):
                    continue
                state = status(entry, todo, now, expire_days)
                if state not in statuses:
                    continue
                item = {"id": todo_id(entry["id"], todo["text"]), "text": todo["text"], "status": state,
                        "session": entry["id"], "note": entry.get("note"), "project": entry.get("project") or "",
                        "ended": entry.get("ended") or ""}
                for key in recent.TODO_MARKS:
                    if todo.get(key):
                        item[key] = todo[key]
                if todo.get("split_from"):
                    item["split_from"] = todo_id(entry["id"], todo["split_from"])
                if todo.get("remaining"):
                    item["remaining_id"] = todo_id(entry["id"], todo["remaining"])
                if state == "done":
                    item["by_summarizer"] = recent.summarizer_closed(todo)
                out.append(item)
    return out


def closer(todo: dict) -> str:
    """Who closed a done to-do, in words: a later session (the summarizer saw it finished), or the
    door the person or the model used (``closed_by``) and the session it was used in."""
    done_by = todo.get("done_by")
    if not done_by:
        return ""
    if done_by != recent.PERSON_CLOSER:
        return f"session {str(done_by)[:8]} (the summarizer)" + (", confirmed" if todo.get("confirmed_at") else "")
    who = DOORS.get(str(todo.get("closed_by") or ""), "the person")
    return who + (f" in session {str(todo['closed_in'])[:8]}" if todo.get("closed_in") else "")


def find(paths: MemoryPaths, wanted: str, *, project: str | None = None, statuses=STATUSES,
         expire_days: float = 30) -> dict:
    """The one to-do ``wanted`` names: its id (or an id prefix of 4+ hex digits), else a piece of
    its text (case-insensitive). ``NOT_FOUND`` when none, ``TODO_AMBIGUOUS`` when several do."""
    wanted = (wanted or "").strip()
    if not wanted or len(wanted) > MAX_TEXT:
        raise invalid("name the to-do by its id or a piece of its text (at most 300 characters)")
    todos = list_todos(paths, project=project, statuses=statuses, expire_days=expire_days)
    hits = [t for t in todos if t["id"] == wanted.lower()]
    if not hits and len(wanted) >= 4 and all(c in "0123456789abcdef" for c in wanted.lower()):
        hits = [t for t in todos if t["id"].startswith(wanted.lower())]
    if not hits:
        hits = [t for t in todos if wanted.lower() in t["text"].lower()]
    unique = {(t["session"], t["text"]): t for t in hits}        # one to-do can sit in two index files
    if not unique:
        raise CodeMemoryError("NOT_FOUND", f"no to-do matches {wanted[:80]!r}",
                              hint="`code-memory todo list --status all` shows them with their ids")
    if len(unique) > 1:
        raise CodeMemoryError("TODO_AMBIGUOUS", f"{len(unique)} to-dos match {wanted[:80]!r}",
                              hint="name one by its id: " + ", ".join(f"{t['id']} ({t['text'][:40]})"
                                                                    for t in list(unique.values())[:5]))
    return next(iter(unique.values()))


def remaining_text(remaining) -> str | None:
    """``remaining`` of a close in part, checked at the door: one line of 1–300 characters (a
    secret in it redacted, as every text memory keeps), or None when not given."""
    if remaining is None:
        return None
    text = " ".join(remaining.split()) if isinstance(remaining, str) else ""
    if not text or len(text) > MAX_TEXT:
        raise invalid(f"remaining: say what is left of the to-do in 1–{MAX_TEXT} characters "
                      f"(got {len(text) if isinstance(remaining, str) else 'no text'})", fields=["remaining"])
    from ..redact_gate import may_hold_secret
    if may_hold_secret(text):
        from ..redact import redact
        text = redact(text)
    return text


def decide(paths: MemoryPaths, wanted: str, action: str, *, by: str, project: str | None = None,
           expire_days: float = 30, now: float | None = None, in_session: str | None = None,
           remaining: str | None = None) -> dict:
    """Close (``done``) or reopen (``reopen``) one to-do: the decision is logged (``by``: the door,
    ``in_session``: the Claude Code session it came from, if any), then applied to every index file
    that holds its session. ``done`` on a to-do the summarizer closed and nobody confirmed is logged
    as ``confirm``. ``remaining`` (``done`` only): the work finished it in part — it is closed, and
    this text stays open as a to-do of the same session (``remaining_id``: its id). Returns the
    to-do as it is now (``action``: what was done)."""
    if action not in ("done", "reopen"):
        raise invalid("the action is done or reopen")
    left = remaining_text(remaining)
    if left is not None and action != "done":
        raise invalid("remaining: only done takes what is left of a to-do", fields=["remaining"])
    allowed = ("open", "expired") if action == "done" else ("done", "carried", "expired")
    todo = find(paths, wanted, project=project, expire_days=expire_days)
    if left is not None and left.lower() == " ".join(todo["text"].split()).lower():
        raise invalid("remaining: that is the whole to-do — if nothing of it is finished, leave it open",
                      fields=["remaining"])
    if action == "done" and todo.get("by_summarizer") and not todo.get("confirmed_at"):
        action = "confirm"                # the summarizer closed it: the person says that was right
    elif todo["status"] not in allowed:
        raise CodeMemoryError("CONFLICT", f"to-do {todo['id']} is already {todo['status']}",
                              hint="reopen it first" if action == "done" else "it is open")
    mark = {"ts": round(time.time() if now is None else now, 3), "action": action, "session": todo["session"],
            "text": todo["text"], "id": todo["id"], "by": by}
    if in_session:
        mark["in_session"] = in_session
    if left:
        mark["remaining"] = left
    append_jsonl(recent.marks_path(paths), mark, mode=0o600)
    for _kind, _stem, path in recent.index_files(paths):
        recent.update_entries(path, lambda entries: recent.apply_mark(entries, mark))
    now_todo = dict(todo)
    recent.apply_mark([{"id": todo["session"], "todos": [now_todo]}], mark)    # the marks as the index has them
    answer = {**now_todo, "status": "open" if action == "reopen" else "done", "action": action}
    if left:
        answer["remaining_id"] = todo_id(todo["session"], left)
    return answer
