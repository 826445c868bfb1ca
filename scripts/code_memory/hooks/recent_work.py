"""The ``recent`` block of the SessionStart context: what the last sessions of this project (and
of its workspace) did, in their own words — newest first, with the note to read for the rest
(docs/summaries.md § Session continuity).

Each work session's entry: date and topic (``· reverted`` when its change was put back), the note,
the files changed, its decisions with their reasons, its outcome as said (the final message's
first and closing sentences), cautions said in it, the person's later requests, the earlier
to-dos it finished — as closes of the summarizer, each with its id and evidence (``closed_why``), so
a wrong one costs one glance and one ``code-memory todo reopen <id>`` — and as closes the model or
the person made inside it (memory_todo, ``code-memory todo done`` from its Bash tool: "closed in
this session", with the id), the to-dos it left open
(``[ ]``). Sessions that changed nothing, decided
nothing and left nothing open ("thanks", a question, "ok") do not take a slot: they fold into one
line. Open to-dos of older sessions follow in one list; a to-do left open longer than
``hooks.todo_expire_days`` expires — named once more in an "expired" line for a week, then only
in ``code-memory todo list``. A close of the summarizer whose entry is no longer shown, not yet
confirmed (``code-memory todo done <id>``), stays in one "Closed by the summarizer, not confirmed"
line for ``hooks.autoclose_notice_days`` after its session. The block fits its share of the start
context by shortening the older entries first, then the closes, and drops a close from that line
last.

It reads one small derived file per project (code_memory.memory.recent, written by the
summarizer), never the notes themselves, so it costs the same with 10 or 10,000 notes on disk. When
that file is missing and the index was never built (a memory root from before it existed, or a
deleted ``.index/``), it is rebuilt from the newest notes only (``REBUILD_NEWEST``); the next
summary rebuilds everything.

``hooks.recent_sessions`` (3) work sessions younger than ``hooks.recent_max_age_days`` (14) are
shown. On ``source: resume`` the resumed session's own entry is left out (its conversation is back
in context); after ``compact`` it is shown, marked as this session's work before compaction.
"""

from __future__ import annotations

import os
import time

from ..memory import recent
from ..memory.todos import EXPIRED_NOTICE_DAYS, expired_since, status, todo_id
from .recall import Block

REBUILD_NEWEST = 64
MAX_FILES_SHOWN = 6
MAX_OLDER_TODOS = 6
MAX_LIGHT = 4
MAX_EXPIRED = 4
MAX_UNCONFIRMED = 4
# how a summarizer close is shortened with the level above: (characters of its to-do, of its evidence)
CLOSE_LEVELS = ((120, 120), (100, 120), (80, 90), (70, 70), (60, 50))
CLOSED_BY_SUMMARIZER = "closed by the summarizer; reopen any that is not"
CLOSED_IN_SESSION = "closed in this session; reopen any that is not"
UNCONFIRMED_HEADING = ("## Closed by the summarizer, not confirmed (memory_todo reopen <id> — or "
                       "`code-memory todo reopen <id>` — if one is not finished): ")
# the header's last clause when the brief lists an open to-do (each with its id, memory/todos.todo_id)
CLOSE_HINT = ("; when your work finishes one of these to-dos, close it: memory_todo (action done, its id), "
              "or `code-memory todo done <id>`.")
# how an entry is shortened when the brief is over its share: (outcome characters of the newest,
# of the older entries, files shown of the older ones, later requests of the older ones, decisions
# of the older ones)
LEVELS = ((300, 300, MAX_FILES_SHOWN, True, 3), (300, 160, 4, False, 3), (220, 90, 3, False, 2),
          (160, 0, 2, False, 1), (100, 0, 0, False, 1))


def _entries(ctx, project) -> tuple:
    """(entries of the project and of its workspace, newest first; the workspace id or None)."""
    paths = ctx.paths
    path = recent.index_path(paths, "project", project.name)
    entries = recent.load_entries(path)
    if entries is None and (os.path.exists(path) or not os.path.exists(recent.built_marker(paths))):
        notes = recent.note_files(paths, REBUILD_NEWEST)
        if notes:                  # a root from before the index, .index/ deleted, a damaged file
            # near-duplicate text only (no dictionary lookups on the hook path); the next summary
            # rebuilds everything with the full comparison (summary/todos.same_todo)
            from ..text.similarity import is_near_duplicate

            written = recent.write_indexes(paths, recent.build_indexes(paths, notes, is_near_duplicate), False)
            ctx.log.info("recent-rebuilt", notes=len(notes), files=written)
            entries = recent.load_entries(path)
    entries = list(entries or [])
    workspace = _workspace(ctx)
    if workspace:
        known = {e["id"] for e in entries}
        more = recent.load_entries(recent.index_path(paths, "workspace", workspace)) or []
        entries += [e for e in more if e["id"] not in known]
    return recent.sort_entries(entries), workspace


def _workspace(ctx) -> str | None:
    if not (ctx.cfg.get("workspaces") or {}).get("paths"):
        return None                          # the common case: no registry to load
    from ..workspace.registry import session_workspace

    found = session_workspace(ctx.cfg, ctx.event.cwd)
    return found.id if found else None


def _when(entry: dict) -> str:
    ts = entry.get("ts")
    if isinstance(ts, (int, float)) and ts > 0:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(ts))
    return str(entry.get("ended") or "")[:16]


def _texts(value) -> list:
    return [str(v) for v in value if isinstance(v, str) and v.strip()] if isinstance(value, list) else []


def _text(value) -> str:
    return value.strip() if isinstance(value, str) else ""


def _cut(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: max(0, limit - 1)].rstrip() + "…"


def _files(entry: dict, limit: int) -> str:
    files = _texts(entry.get("files"))
    shown = ", ".join(files[:limit])
    return shown + (f" (+{len(files) - limit} more)" if len(files) > limit else "")


def is_light(entry: dict) -> bool:
    """A session that changed nothing, decided nothing, finished and left nothing open."""
    return not any(_texts(entry.get(key)) for key in ("files", "decisions", "finished", "noted")) and \
        not entry.get("todos") and not _text(entry.get("reverted"))


def _close(text: str, todo_ref: str, why: str, close_level: tuple) -> str:
    """One summarizer close as the brief shows it: ``<text> (id <8hex>) ← “<evidence>”``."""
    text_chars, why_chars = close_level
    shown = _cut(text.replace("[ ]", "[]"), text_chars) + (f" (id {todo_ref})" if todo_ref else "")
    return shown + (f" ← “{_cut(why.replace('[ ]', '[]'), why_chars)}”" if why else "")


def _in_part(todo: dict, entry: dict) -> str:
    """`` — in part, left open: id …`` after a to-do closed in part (memory/recent.py ``remaining``)."""
    left = _text(todo.get("remaining"))
    return f" — in part, left open: id {todo_id(entry['id'], left)}" if left else ""


def _finished_lines(closes: list, close_level: tuple, closed_here: list = ()) -> list:
    """The finishing entry's lines: the earlier to-dos it finished — as closes of the summarizer
    with their id and evidence until the person confirms them (then plainly); one the person
    reopened is not listed (it is open again: ``closes`` leaves it out) — and those the model or
    the person closed inside the session (``closed_here``: ``[(to-do, its entry)]``)."""
    lines = []
    if closed_here:
        lines.append(f"- finished earlier to-dos ({CLOSED_IN_SESSION}): " + "; ".join(
            _close(todo["text"], todo_id(earlier["id"], todo["text"]), "", close_level) + _in_part(todo, earlier)
            for todo, earlier in closed_here))
    pending, confirmed = [], []
    for text, todo, earlier in closes:
        item = _close(text, todo_id(earlier["id"], todo["text"]) if todo else "",
                      _text(todo.get("closed_why")) if todo else "", close_level)
        (confirmed if todo and todo.get("confirmed_at") else pending).append(item)
    if pending:
        lines.append(f"- finished earlier to-dos ({CLOSED_BY_SUMMARIZER}): " + "; ".join(pending))
    if confirmed:
        lines.append("- finished earlier to-dos (confirmed): " + "; ".join(confirmed))
    return lines


def _entry_lines(entry: dict, newest: bool, level: tuple, session_id: str, source: str, project: str,
                 open_todos: list, closes: list = (), close_level: tuple = CLOSE_LEVELS[0],
                 closed_here: list = ()) -> list:
    outcome_new, outcome_old, files_old, asked_old, decisions_old = level
    own = entry.get("id") == session_id
    topic = _text(entry.get("topic")) or "(no topic)"
    tag = " (this session, before compaction)" if own and source == "compact" else ""
    reverted = _text(entry.get("reverted"))
    other = entry.get("project")
    where = f" [{other}]" if other and project and other != project else ""
    lines = [f"## {_when(entry)}{where} · {topic}{' · reverted' if reverted else ''}{tag}",
             f"- note: {entry.get('note')}"]
    limit = MAX_FILES_SHOWN if newest else files_old
    if _texts(entry.get("files")) and limit:
        lines.append(f"- files: {_files(entry, limit)}")
    if reverted:
        lines.append(f"- reverted: {_cut(reverted, 200)}")
    decisions = _texts(entry.get("decisions"))[: 3 if newest else decisions_old]
    lines += [f"- decided: {d}" for d in decisions]
    size = outcome_new if newest else outcome_old
    if size and _text(entry.get("outcome")):
        lines.append(f"- outcome: {_cut(entry['outcome'].replace('[ ]', '[]'), size)}")
    if newest or asked_old:
        lines += [f"- noted: {_cut(n, 160)}" for n in _texts(entry.get("noted"))[:2]]
    asked = _texts(entry.get("asked"))
    if asked and (newest or asked_old):
        lines.append(f"- then asked: {_cut(' · '.join(asked), 200)}")
    lines += _finished_lines(closes, close_level, closed_here)
    if open_todos:
        lines.append("- open to-dos:")
        lines += [f"  - [ ] {t} (id {todo_id(entry['id'], t)})" for t in open_todos]
    return lines


def _light_line(entries: list) -> str:
    parts = []
    for entry in entries[:MAX_LIGHT]:
        said = _cut(_text(entry.get("topic")), 70)
        outcome = _cut(_text(entry.get("outcome")), 70)
        parts.append(f"{_when(entry)[5:]} “{said}”" + (f" → {outcome}" if outcome else ""))
    more = f" (+{len(entries) - MAX_LIGHT} more)" if len(entries) > MAX_LIGHT else ""
    return f"## Short sessions (nothing changed or left open): {'; '.join(parts)}{more}"


def with_text(entry: dict) -> list:
    """The entry's to-dos that have text (an index written by hand may hold anything)."""
    return [t for t in entry.get("todos") or []
            if isinstance(t, dict) and isinstance(t.get("text"), str) and t["text"].strip()]


def _todo_states(entry: dict, now: float, expire_days: float) -> list:
    """``[(to-do, status)]`` of the entry's to-dos that have text (memory/todos.status)."""
    return [(t, status(entry, t, now, expire_days)) for t in with_text(entry)]


def _unconfirmed_line(unconfirmed: list, close_level: tuple, shown: int) -> str:
    """The summarizer's closes whose finishing entry is no longer shown, in one line."""
    return UNCONFIRMED_HEADING + "; ".join(
        _close(todo["text"], todo_id(earlier["id"], todo["text"]), _text(todo.get("closed_why")), close_level)
        for todo, earlier in unconfirmed[:shown])


def render(chosen: list, light: list, older: list, expired: list, label: str, session_id: str, source: str,
           project: str, now: float, expire_days: float, budget: int = 0, closes: dict | None = None,
           unconfirmed: list = (), closed_in: dict | None = None) -> str:
    """The block's text: ``chosen`` work sessions (newest first) with their open to-dos and the
    summarizer's ``closes`` (``{entry id: [(text, to-do or None, its entry or None)]}``), the
    ``light`` sessions in one line, ``older`` open to-dos ``[(text, entry)]``, ``expired`` ones,
    the to-dos the model or the person closed inside a session ``closed_in`` (:func:`session_closes`),
    the ``unconfirmed`` closes of entries no longer shown ``[(to-do, its entry)]`` — within
    ``budget`` characters when it can (older entries are shortened first, then the closes; a
    close is dropped from the unconfirmed line only when shortening is not enough)."""
    text = ""
    closes, closed_in = closes or {}, closed_in or {}
    open_todos = [[t["text"] for t, state in _todo_states(entry, now, expire_days) if state == "open"]
                  for entry in chosen]
    attempts = [(level, close_level, MAX_UNCONFIRMED) for level, close_level in zip(LEVELS, CLOSE_LEVELS)]
    attempts += [(LEVELS[-1], CLOSE_LEVELS[-1], n) for n in range(min(len(unconfirmed), MAX_UNCONFIRMED) - 1, -1, -1)]
    for level, close_level, shown in attempts:
        lines = [f"Recent sessions in {label}, newest first. Each full note is sessions/<id>.md under the "
                 "memory root (Read it for details)" + (CLOSE_HINT if any(open_todos) or older else ".")]
        for position, (entry, todos) in enumerate(zip(chosen, open_todos)):
            lines += _entry_lines(entry, position == 0, level, session_id, source, project, todos,
                                  closes.get(entry["id"], ()), close_level, closed_in.get(entry["id"], ()))
        if light:
            lines.append(_light_line(light))
        if older:
            lines.append("## Still open from earlier sessions")
            lines += [f"- [ ] {t} ({e.get('note')}, {_when(e)[:10]}, id {todo_id(e['id'], t)})"
                      for t, e in older[:MAX_OLDER_TODOS]]
        if unconfirmed and shown:
            lines.append(_unconfirmed_line(unconfirmed, close_level, shown))
        if expired:
            lines.append(f"## Expired to-dos (open more than {expire_days:g} days, not shown again; "
                         "`code-memory todo reopen <id or words>` keeps one): "
                         + "; ".join(f"{_cut(t, 80)} ({e.get('note')})" for t, e in expired[:MAX_EXPIRED]))
        text = "\n".join(lines)
        if not budget or len(text) <= budget:
            break
    return text


def summarizer_closes(entries: list) -> tuple:
    """``({finishing entry id: [(text, to-do or None, its entry or None)]}, [(to-do, its entry,
    finishing entry)])``: the closes the summarizer made (memory/recent.py ``summarizer_closed``),
    by the entry that made them, and each one with the entry that made it — a finished text whose
    to-do is no longer in the index is listed without id; one the person reopened or closed
    themselves is not listed."""
    by_id = {e["id"]: e for e in entries}
    made: dict = {}
    texts = set()
    for entry in entries:
        for todo in entry.get("todos") or []:
            if isinstance(todo, dict) and isinstance(todo.get("text"), str):
                texts.add(todo["text"])
                if recent.summarizer_closed(todo) and todo["done_by"] in by_id:
                    made.setdefault(todo["done_by"], []).append((todo, entry))
    closes, pending = {}, []
    for entry in entries:
        mine = made.get(entry["id"], [])
        listed = [(todo["text"], todo, earlier) for todo, earlier in mine]
        listed += [(text, None, None) for text in _texts(entry.get("finished"))
                   if text not in texts]                 # its to-do's session left the index
        if listed:
            closes[entry["id"]] = listed
        pending += [(todo, earlier, entry) for todo, earlier in mine if not todo.get("confirmed_at")]
    return closes, pending


def session_closes(entries: list) -> dict:
    """``{session id: [(to-do, its entry)]}``: the to-dos the model (memory_todo, or ``code-memory todo
    done`` from its Bash tool) or the person closed inside a Claude Code session (``closed_in``), by
    that session. Closes made outside any session (the person at a terminal, the browser) are not
    listed: the person knows them, and the to-do just leaves the brief."""
    out: dict = {}
    for entry in entries:
        for todo in entry.get("todos") or []:
            if isinstance(todo, dict) and isinstance(todo.get("text"), str) and \
                    todo.get("done_by") == recent.PERSON_CLOSER and isinstance(todo.get("closed_in"), str):
                out.setdefault(todo["closed_in"], []).append((todo, entry))
    return out


def recent_block(ctx, project):
    if project is None:
        return None
    count = int(ctx.setting("recent_sessions"))
    if count <= 0:
        return None
    max_age = float(ctx.setting("recent_max_age_days")) * 86400.0
    expire_days = float(ctx.setting("todo_expire_days"))
    notice = float(ctx.setting("autoclose_notice_days")) * 86400.0
    now = time.time()
    session_id, source = ctx.event.session_id, ctx.event.source
    chosen, light, older, expired = [], [], [], []
    entries, workspace = _entries(ctx, project)
    closed_in = session_closes(entries)
    for entry in entries:
        ts = entry.get("ts")
        if not isinstance(ts, (int, float)) or (entry["id"] == session_id and source == "resume"):
            continue
        young = now - ts <= max_age
        shown = young and len(chosen) < count
        if shown and is_light(entry) and entry["id"] not in closed_in:
            light.append(entry)               # folded into one line, never taking a slot
            continue
        if shown:
            chosen.append(entry)              # its open to-dos are listed with it
        for todo, state in _todo_states(entry, now, expire_days):
            if state == "open" and not shown:
                older.append((todo["text"], entry))
            elif state == "expired" and now - expired_since(entry, todo, expire_days) <= EXPIRED_NOTICE_DAYS * 86400:
                expired.append((todo["text"], entry))
    closes, pending = summarizer_closes(entries)
    on_show = {e["id"] for e in chosen}
    unconfirmed = [(todo, earlier) for todo, earlier, finisher in pending
                   if finisher["id"] not in on_show and now - recent.number(finisher.get("ts")) <= notice]
    if not chosen and not light and not older and not expired and not unconfirmed:
        return None
    label = f'project "{project.name}"' + (f' and workspace "{workspace}"' if workspace else "")
    shares = ctx.setting("session_start_block_chars") or {}
    budget = int(shares.get("recent") or 0) if isinstance(shares, dict) else 0
    text = render(chosen, light, older, expired, label, session_id, source, project.name, now, expire_days, budget,
                  closes, unconfirmed, closed_in)
    ctx.log.info("recent", sessions=len(chosen), light=len(light), older_todos=min(len(older), MAX_OLDER_TODOS),
                 expired=len(expired), unconfirmed=min(len(unconfirmed), MAX_UNCONFIRMED), chars=len(text))
    return Block(os.path.join(ctx.paths.root, "sessions"), "recent work — the last sessions of this project", text)
