"""The recent-work index: a small derived file per project (and per workspace) with its latest
sessions, so SessionStart never scans ``sessions/`` (docs/summaries.md § Session continuity).

    .index/recent/project/<project>.json     {"version", "kind", "name", "entries": [...]}
    .index/recent/workspace/<id>.json        the same for the sessions inside a workspace
    .index/recent/.built                     written after a full rebuild from the notes

An entry, newest first (by end time, then session id, so two sessions that end in the same
second keep one stable order):

    {"id", "note": "sessions/<id>.md", "project", "workspace", "ended", "ts", "topic",
     "files": [...], "decisions": [...],
     "todos": [{"text", "done_by"?, "carried_to"?, "closed_why"?, "confirmed_at"?, …}],
     "outcome": the final message as said, "asked": [later requests], "reverted": "" | why,
     "noted": [cautions said],
     "finished": [earlier to-dos it finished], "mode"}

A to-do is open until a later session finished it (``done_by``: that session's id, ``closed_why``:
the statement of that session that supports the close, summary/close_evidence.py) or listed it
again as its own to-do (``carried_to``) — then only the newer copy is shown. A close the summarizer
made stays in the brief as such until the person confirms it (``confirmed_at``) or reopens it. The session notes
are the truth: a note lists its to-dos and the earlier ones it finished (``6. 已完成的待办``), and
:func:`rebuild` derives every index file from them (the summarizer runs it when ``.built`` is
missing; SessionStart, which must stay fast, only rebuilds from the newest notes). Writers hold the file's lock and replace it atomically; readers never
lock. Reading costs one small JSON file (``jsonlite``: no ``import json`` on the hook path).
"""

from __future__ import annotations

import os

from .. import jsonlite
from ..fsutil import read_text
from ..paths import MemoryPaths, safe_name

VERSION = 1
MAX_ENTRIES = 40                   # per index file; older sessions live on in their notes
KINDS = ("project", "workspace")
TODO_MARKS = ("done_by", "carried_to", "closed_at", "closed_by", "closed_in", "reopened_at", "closed_why",
              "confirmed_at", "remaining")
# a to-do closed in part (a mark's ``remaining``): the original is done and keeps ``remaining`` (the text
# left); that text becomes a to-do of the same session entry, ``split_from`` the original's text
# ``done_by`` of a close the person or the model made, whatever the door (that is ``closed_by``);
# a close of the summarizer holds the finishing session's id instead
PERSON_CLOSER = "user"


def recent_dir(paths: MemoryPaths) -> str:
    return os.path.join(paths.index_dir, "recent")


def index_path(paths: MemoryPaths, kind: str, name: str) -> str:
    return os.path.join(recent_dir(paths), kind, safe_name(name, max_len=120) + ".json")


def built_marker(paths: MemoryPaths) -> str:
    return os.path.join(recent_dir(paths), ".built")


def load_entries(path: str) -> list | None:
    """The entries of one index file (newest first), or None when it is missing or unreadable."""
    text = read_text(path)
    if text is None:
        return None
    try:
        data = jsonlite.loads(text)
    except ValueError:
        return None
    entries = data.get("entries") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        return None
    return [e for e in entries if isinstance(e, dict) and isinstance(e.get("id"), str)]


def open_todos(entry: dict) -> list:
    """The texts of an entry's to-dos that are neither done nor carried into a later session."""
    return [t["text"] for t in entry.get("todos") or []
            if isinstance(t, dict) and isinstance(t.get("text"), str) and t["text"].strip()
            and not t.get("done_by") and not t.get("carried_to")]


def number(value) -> float:
    """A JSON number as a float (a bool, a string, a missing value: 0)."""
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0


def _ts(entry: dict) -> float:
    return number(entry.get("ts"))


def _order_key(entry: dict) -> tuple:
    return (-_ts(entry), entry.get("id", ""))


def sort_entries(entries: list) -> list:
    return sorted(entries, key=_order_key)


# ---------------------------------------------------------------------------------------------
# writing (the summarizer, the weekly job)

def _dump(kind: str, name: str, entries: list) -> str:
    return jsonlite.dumps({"version": VERSION, "kind": kind, "name": name, "entries": entries})


def _update(path: str, kind: str, name: str, transform) -> list:
    """Locked read-modify-write of one index file; ``transform(entries) -> entries``."""
    from .tree import update_file

    result: list = []

    def apply(text: str) -> str:
        entries = None
        if text:
            try:
                data = jsonlite.loads(text)
                entries = data.get("entries") if isinstance(data, dict) else None
            except ValueError:
                entries = None
        entries = [e for e in entries or [] if isinstance(e, dict) and isinstance(e.get("id"), str)]
        result[:] = sort_entries(transform(entries))[:MAX_ENTRIES]
        return _dump(kind, name, result)

    update_file(path, apply)
    return result


def summarizer_closed(todo: dict) -> bool:
    """Closed by the summarizer (``done_by``: the finishing session), not by the person or the model."""
    by = todo.get("done_by")
    return isinstance(by, str) and bool(by) and by != PERSON_CLOSER


def mark_earlier(entries: list, current: dict, done: list, is_same, why=None) -> None:
    """Mark the earlier entries' open to-dos that ``current`` finished (``done``: ``[(earlier id,
    text)]``; ``why``: ``{text: evidence}``, kept as ``closed_why``) or lists again as its own
    to-do (``is_same(a, b)``: near-duplicate text). A to-do the person reopened is only marked by a
    session that ended after the reopening."""
    mine = [t["text"] for t in current.get("todos") or []]
    now = _ts(current)
    for entry in entries:
        if entry["id"] == current["id"] or not _ts(entry) < now:
            continue          # only sessions that ended before this one (not in the same second)
        for todo in entry.get("todos") or []:
            again = todo.get("done_by") == current["id"]      # summarized again: the note's evidence, as a rebuild reads it
            if (todo.get("done_by") or todo.get("carried_to") or not number(todo.get("reopened_at")) < now) \
                    and not again:
                continue
            closed_as = next((text for ref, text in done if ref == entry["id"] and is_same(text, todo["text"])), None)
            if closed_as is None:
                if not again and any(is_same(text, todo["text"]) for text in mine):
                    todo["carried_to"] = current["id"]
                continue
            todo["done_by"] = current["id"]
            if (why or {}).get(closed_as):
                todo["closed_why"] = why[closed_as]


def record_session(paths: MemoryPaths, entry: dict, done: list, is_same, why=None) -> dict:
    """Put ``entry`` (replacing an older version of the same session, keeping what the person
    decided about its to-dos) into its project's and its workspace's index files and mark what it
    finished or carried over. Returns ``{kind: path}``."""
    written = {}
    marks = [m for m in load_marks(paths) if m["session"] == entry["id"]]
    for kind, name in (("project", entry.get("project")), ("workspace", entry.get("workspace"))):
        if not name:
            continue
        path = index_path(paths, kind, name)

        def transform(entries, kind=kind):
            mine = dict(entry, todos=[dict(t) for t in entry.get("todos") or []])
            before = {t.get("text"): t for e in entries if e["id"] == entry["id"] for t in e.get("todos") or []
                      if isinstance(t, dict)}
            for todo in mine["todos"]:       # what later sessions marked on the version it replaces
                old = before.get(todo.get("text")) or {}
                todo.update({k: old[k] for k in TODO_MARKS if old.get(k) and k not in todo})
            for mark in marks:
                apply_mark([mine], mark)
            for todo in mine["todos"]:       # parts left open (split off by a mark) keep their later marks too
                old = (before.get(todo.get("text")) or {}) if todo.get("split_from") else {}
                todo.update({k: old[k] for k in TODO_MARKS if old.get(k) and k not in todo})
            kept = [e for e in entries if e["id"] != entry["id"]] + [mine]
            mark_earlier(kept, mine, done, is_same, why)
            return kept

        _update(path, kind, name, transform)
        written[kind] = path
    return written


def update_entries(path: str, apply) -> None:
    """Locked read-modify-write of an existing index file: ``apply(entries)`` changes them in place."""
    from .tree import update_file

    def transform(text: str) -> str:
        try:
            data = jsonlite.loads(text) if text else None
        except ValueError:
            data = None
        if not isinstance(data, dict) or not isinstance(data.get("entries"), list):
            return text
        entries = [e for e in data["entries"] if isinstance(e, dict) and isinstance(e.get("id"), str)]
        apply(entries)
        return _dump(str(data.get("kind") or ""), str(data.get("name") or ""), entries)

    if os.path.exists(path):
        update_file(path, transform)


# ---------------------------------------------------------------------------------------------
# the person's decisions about to-dos (memory/todos.py writes them)

def marks_path(paths: MemoryPaths) -> str:
    return os.path.join(paths.sessions, "todo-marks.jsonl")


def load_marks(paths: MemoryPaths) -> list:
    """The person's to-do decisions, oldest first (torn or foreign lines skipped)."""
    from ..fsutil import iter_jsonl

    return [m for m in iter_jsonl(marks_path(paths))
            if m.get("action") in ("done", "reopen", "confirm") and isinstance(m.get("session"), str)
            and isinstance(m.get("text"), str) and isinstance(m.get("ts"), (int, float))]


def apply_mark(entries: list, mark: dict) -> bool:
    """Apply one decision (``done``: closed by the person; ``reopen``: open again, its clock
    restarted; ``confirm``: the summarizer's close of it is right) to the to-do it names. A ``done``
    or ``confirm`` with ``remaining`` closes it in part: the text left becomes an open to-do of the
    same entry, just after it (``split_from``: the original's text); reopening the original withdraws
    that part again (the whole to-do is open; its text was never changed). Returns whether one matched."""
    hit = False
    for entry in entries:
        if entry.get("id") != mark["session"]:
            continue
        todos = entry.get("todos") or []
        for todo in list(todos):
            if not isinstance(todo, dict) or todo.get("text") != mark["text"]:
                continue
            hit = True
            if mark["action"] == "done":       # closed_by: the door (cli, ui, mcp); closed_in: the session
                todo.update(done_by=PERSON_CLOSER, closed_at=mark["ts"], closed_by=str(mark.get("by") or ""))
                if isinstance(mark.get("in_session"), str) and mark["in_session"]:
                    todo["closed_in"] = mark["in_session"]
            elif mark["action"] == "confirm":
                if summarizer_closed(todo):
                    todo["confirmed_at"] = mark["ts"]
            else:
                _withdraw_parts(todos, todo["text"])
                for key in TODO_MARKS:
                    todo.pop(key, None)
                todo["reopened_at"] = mark["ts"]
            left = remaining_of(mark)
            if left and mark["action"] != "reopen" and todo.get("done_by"):
                todo["remaining"] = left
                if not any(isinstance(t, dict) and t.get("text") == left for t in todos):
                    todos.insert(todos.index(todo) + 1, {"text": left, "split_from": todo["text"]})
    return hit


def remaining_of(mark: dict) -> str:
    """The text a close in part left open (a mark's ``remaining``), or ``""``."""
    left = mark.get("remaining")
    return " ".join(left.split()) if isinstance(left, str) else ""


def _withdraw_parts(todos: list, text: str) -> None:
    """Remove the parts split off ``text`` (and off them), in place: reopened, it holds them again."""
    gone = {text}
    while True:
        parts = [t for t in todos if isinstance(t, dict) and t.get("split_from") in gone and t["text"] not in gone]
        if not parts:
            return
        gone.update(t["text"] for t in parts)
        todos[:] = [t for t in todos if t not in parts]


def index_files(paths: MemoryPaths, kinds=KINDS) -> list:
    """``[(kind, file name without .json, path)]`` of the index files there are, by kind then name."""
    found = []
    for kind in kinds:
        folder = os.path.join(recent_dir(paths), kind)
        names = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
        found += [(kind, name[:-5], os.path.join(folder, name)) for name in names if name.endswith(".json")]
    return found


def forget_missing_notes(paths: MemoryPaths) -> int:
    """Drop entries whose note is gone (the weekly cleanup deleted it). Returns how many."""
    dropped = 0
    for kind, stem, path in index_files(paths):
        entries = load_entries(path) or []
        gone = {e["id"] for e in entries if not os.path.exists(os.path.join(paths.root, str(e.get("note"))))}
        if gone:
            label = str((jsonlite.loads(read_text(path) or "{}") or {}).get("name") or stem)
            _update(path, kind, label, lambda es, gone=gone: [e for e in es if e["id"] not in gone])
            dropped += len(gone)
    return dropped


# ---------------------------------------------------------------------------------------------
# rebuilding from the notes

def entry_from_note(paths: MemoryPaths, path: str, fields: dict, workspace_of=None) -> dict:
    """An index entry from a parsed note (``sessions.parse_note``)."""
    from ..timeutil import parse_ts

    ts = parse_ts(fields.get("ended") or "") or parse_ts(fields.get("time") or "")
    if ts is None:
        try:
            ts = os.path.getmtime(path)
        except OSError:
            ts = 0.0
    sid = fields.get("session_id") or os.path.splitext(os.path.basename(path))[0]
    workspace = workspace_of(fields.get("cwd") or "") if workspace_of and fields.get("cwd") else None
    return {"id": sid, "note": os.path.relpath(path, paths.root), "project": fields.get("project") or "",
            "workspace": workspace or "", "ended": fields.get("ended") or fields.get("time") or "", "ts": ts,
            "topic": fields.get("topic") or "", "files": list(fields.get("files") or [])[:12],
            "decisions": briefable(fields.get("decisions"))[:3],
            "todos": [{"text": t} for t in briefable(fields.get("todos"))][:8],
            "outcome": briefable_one(fields.get("outcome")), "asked": briefable(fields.get("asked"))[:3],
            "reverted": briefable_one(fields.get("reverted")), "noted": briefable(fields.get("noted"))[:2],
            "finished": briefable([text for text, _ref in fields.get("done") or []])[:8],
            "done": [list(d) for d in fields.get("done") or []], "done_why": dict(fields.get("done_why") or {})}


def briefable_one(text) -> str:
    """One line the brief may show, else ``""`` (see :func:`briefable`)."""
    return (briefable([text]) or [""])[0] if isinstance(text, str) else ""


def briefable(lines) -> list:
    """Decisions, to-dos and what a session said that the next session's brief may show: never one
    that fetches code from the network and runs it (text/fetch_run.py; docs/security.md § Review)."""
    from ..text.fetch_run import fetches_and_runs
    return [line for line in lines or [] if not fetches_and_runs(line)]


def build_indexes(paths: MemoryPaths, note_paths, is_same, workspace_of=None) -> dict:
    """``{(kind, name): entries}`` from the given notes: each note applied oldest first, so its
    finished and repeated to-dos mark the earlier entries as :func:`record_session` would, and the
    person's to-do decisions replayed in time order among them."""
    from .sessions import parse_note

    marks = load_marks(paths)

    entries = []
    for path in note_paths:
        text = read_text(path)
        if text is None:
            continue
        fields = parse_note(text, path)
        if not fields["project"] and not fields["topic"]:
            continue
        entries.append(entry_from_note(paths, path, fields, workspace_of))
    groups: dict = {}

    def replay(until: float) -> None:
        while marks and marks[0]["ts"] < until:
            mark = marks.pop(0)
            for group in groups.values():
                apply_mark(group, mark)

    for entry in sorted(entries, key=_order_key, reverse=True):   # oldest first
        replay(_ts(entry))
        done_refs = [(safe_ref, text) for text, safe_ref in entry.pop("done")]
        why = entry.pop("done_why")
        for kind, name in (("project", entry["project"]), ("workspace", entry["workspace"])):
            if not name:
                continue
            group = groups.setdefault((kind, name), [])
            group.append(dict(entry, todos=[dict(t) for t in entry["todos"]]))
            resolved = [(_resolve(group, ref), text) for ref, text in done_refs]
            mark_earlier(group, entry, resolved, is_same, why)
    replay(float("inf"))
    return {key: sort_entries(value)[:MAX_ENTRIES] for key, value in groups.items()}


def _resolve(group: list, safe_ref: str) -> str:
    """A note names an earlier session by its file name (the safe id): the entry id it means."""
    for entry in group:
        if entry["id"] == safe_ref or safe_name(entry["id"]) == safe_ref:
            return entry["id"]
    return safe_ref


def write_indexes(paths: MemoryPaths, groups: dict, replace_all: bool) -> int:
    """Write rebuilt index files (atomically, each under its lock); with ``replace_all`` the
    files of projects that have no sessions any more are removed. Returns the files written."""
    from .tree import update_file

    wanted = set()
    for (kind, name), entries in groups.items():
        path = index_path(paths, kind, name)
        wanted.add(path)
        update_file(path, lambda _old, kind=kind, name=name, entries=entries: _dump(kind, name, entries))
    if replace_all:
        for _kind, _stem, path in index_files(paths):
            if path not in wanted:
                os.unlink(path)
    return len(wanted)


def note_files(paths: MemoryPaths, newest: int | None = None) -> list:
    """``sessions/*.md`` paths, all of them or the ``newest`` by modification time."""
    found = []
    try:
        with os.scandir(paths.sessions) as it:
            for item in it:
                if item.name.endswith(".md") and not item.name.startswith("."):
                    try:
                        found.append((item.stat().st_mtime, item.path))
                    except OSError:
                        continue
    except OSError:
        return []
    if newest is not None and len(found) > newest:
        import heapq

        found = heapq.nlargest(newest, found)
    return [p for _m, p in sorted(found)]


def rebuild(paths: MemoryPaths, is_same, workspace_of=None) -> dict:
    """Rebuild every index file from all session notes and write ``.built``."""
    from ..fsutil import atomic_write_text

    notes = note_files(paths)
    groups = build_indexes(paths, notes, is_same, workspace_of)
    files = write_indexes(paths, groups, replace_all=True)
    atomic_write_text(built_marker(paths), f"{len(notes)} notes\n", durable=False)
    return {"notes": len(notes), "files": files}
